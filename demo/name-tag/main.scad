// Name tag: a plate with raised text and a hole for a key ring.

/* [Text] */
// The name on the tag
name = "Paraform"; // 20
// Letter height in mm
text_size = 10; // [5:0.5:20]
// Typeface
font = "DejaVu Sans"; // [DejaVu Sans:Sans, DejaVu Sans Mono:Mono, DejaVu Serif:Serif]

/* [Plate] */
// Plate thickness
thickness = 2; // [1:0.5:5]
// Raise of the letters above the plate
relief = 1; // [0.4:0.2:3]
// Hole for a key ring
with_hole = true;
// Margin around the text
margin = 4; // [2:1:10]

$fn = 32;

// Each letter's width in letter sizes, on the wide side of the three typefaces' own, so that the
// plate is long enough for the text whatever its letters (OpenSCAD cannot measure text before 2025).
function advance(c) =
  font == "DejaVu Sans Mono" ? 0.84 :
  len(search(c, "WMmw@%")) > 0 ? 1.44 :
  len(search(c, " iIjlrft.,;:'!|()[]-")) > 0 ? 0.62 :
  ord(c) >= 97 && ord(c) <= 122 || ord(c) >= 48 && ord(c) <= 57 ? 0.93 : 1.13;
function sum(values, i = 0) = i < len(values) ? values[i] + sum(values, i + 1) : 0;

text_width = text_size * sum([for (c = name) advance(c)]);
plate_length = text_width + 2 * margin + (with_hole ? text_size : 0);
plate_height = text_size + 2 * margin;

color("White") difference() {
  hull() for (x = [plate_height / 2, plate_length - plate_height / 2]) translate([x, plate_height / 2, 0]) cylinder(d = plate_height, h = thickness);
  if (with_hole) translate([plate_height / 2, plate_height / 2, -1]) cylinder(d = text_size * 0.5, h = thickness + 2);
}
color("Crimson") translate([margin + (with_hole ? text_size : 0), plate_height / 2, thickness])
  linear_extrude(relief) text(name, size = text_size, font = font, valign = "center");
