// Coaster with an inlaid logo: upload an SVG, choose it as the logo.

/* [Coaster] */
// Diameter in mm
diameter = 90; // [60:1:120]
// Thickness in mm
thickness = 4; // [2:0.5:8]
// Number of sides (0 for round)
sides = 0; // [0:Round, 6:Hexagon, 8:Octagon]

/* [Logo] */
// An SVG file uploaded to this session
logo = ""; // [file]
// Logo width in mm
logo_width = 50; // [10:1:100]
// Depth of the logo inlay
inlay = 1; // [0.4:0.2:3]

$fn = sides == 0 ? 96 : sides;

color("SaddleBrown") difference() {
  cylinder(d = diameter, h = thickness);
  if (logo != "")
    translate([0, 0, thickness - inlay]) linear_extrude(inlay + 1) resize([logo_width, 0], auto = true) import(logo, center = true);
}
if (logo != "")
  color("Ivory") translate([0, 0, thickness - inlay]) linear_extrude(inlay) resize([logo_width, 0], auto = true) import(logo, center = true);
