// Every kind of Customizer control OpenSCAD shows, in the groups it shows them in.
// Built by default: a 20 x 10 x 5 mm block.

/* [Numbers] */
// Slider from 10 to 100
length = 20; // [10:100]
// Slider in steps of 5
width = 10; // [0:5:50]
// Slider up to 50 (from 0)
height = 5; // [50]
// Spinbox, no range
count = 3;
// Spinbox in steps of 0.5
offset = 1.5; // 0.5

/* [Choices] */
// Numbers to choose from
teeth = 20; // [10, 20, 30]
// Numbers with labels
size = 2; // [1:Small, 2:Medium, 3:Large]
// Words to choose from
shape = "round"; // [round, square]
// Words with labels
finish = "matt"; // [matt:Matt finish, gloss:Glossy]

/* [Text and switches] */
// At most 12 characters
label = "Grüße"; // 12
// Any text
note = "été";
// Show the label
show_label = true;

/* [Resolution] */
// Facets of a full circle
$fn = 48; // [12:1:128]

/* [Hidden] */
secret = 42;

cube([length, width, height]);
