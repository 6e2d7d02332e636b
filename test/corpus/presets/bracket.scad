// A shelf bracket with named presets in bracket.json, as OpenSCAD's Customizer saves them.
// Built: a plate of width x depth x thickness.

/* [Size] */
width = 30; // [10:100]
depth = 20; // [10:80]
thickness = 3; // [2:0.5:8]
/* [Holes] */
holes = [6, 12, 6, 12]; // [0:30]
countersunk = true;
finish = "matt"; // [matt:Matt, gloss:Glossy]
label = "Shelf"; // 8

cube([width, depth, thickness]);
