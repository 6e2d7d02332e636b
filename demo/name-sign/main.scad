// A name sign for a laser cutter: the letters cut through a plate with rounded corners, to be
// mounted on a backing of another colour. The model is 2D: it is downloaded as SVG or DXF.

/* [Sign] */
// The name on the sign
name = "Ada"; // 14
// Letter height (mm)
size = 30; // [15:1:60]
// Typeface
font = "Liberation Sans:style=Bold"; // [Liberation Sans:style=Bold, Liberation Serif:style=Bold, Liberation Mono:style=Bold]

/* [Plate] */
// Border around the letters (mm)
border = 8; // [4:1:20]
// Corner radius (mm)
corner = 6; // [1:1:15]
// A hole to hang it by
hole = true;

module letters() text(name, size = size, font = font, halign = "center", valign = "center");

difference() {
  // The letters' hull grown by the border, its corners rounded.
  offset(r = corner) offset(delta = border - corner) hull() letters();
  letters();
  if (hole) translate([0, size / 2 + border / 2 + 1]) circle(d = 4);
}
