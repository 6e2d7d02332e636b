// Box with lid: a storage box whose lid sits beside it on the print bed.

/* [Size] */
// Outside width in mm
width = 80; // [30:1:200]
// Outside depth in mm
depth = 60; // [30:1:200]
// Outside height of the box, without the lid
height = 40; // [15:0.5:120]

/* [Walls] */
// Wall and floor thickness
wall = 2; // [1.2:0.2:5]
// Corner style
corners = "round"; // [square:Square, round:Rounded]
// Corner radius for rounded corners
radius = 6; // [8]

/* [Lid] */
// Print a lid next to the box
with_lid = true;
// Clearance between lid lip and box
clearance = 0.3; // [0.1, 0.2, 0.3, 0.4]

$fn = 48;

module rounded_rect(w, d, h, r) {
  if (corners == "round" && r > 0) {
    rr = min(r, w / 2 - 0.01, d / 2 - 0.01);
    hull() for (x = [rr, w - rr], y = [rr, d - rr]) translate([x, y, 0]) cylinder(r = rr, h = h);
  } else {
    cube([w, d, h]);
  }
}

module box() {
  difference() {
    rounded_rect(width, depth, height, radius);
    translate([wall, wall, wall]) rounded_rect(width - 2 * wall, depth - 2 * wall, height, max(radius - wall, 0));
  }
}

module lid() {
  lip = wall + clearance;
  rounded_rect(width, depth, wall, radius);
  translate([lip, lip, wall]) difference() {
    rounded_rect(width - 2 * lip, depth - 2 * lip, 4, max(radius - lip, 0));
    translate([wall, wall, -1]) rounded_rect(width - 2 * lip - 2 * wall, depth - 2 * lip - 2 * wall, 6, max(radius - lip - wall, 0));
  }
}

echo(str("inner volume: ", (width - 2 * wall) * (depth - 2 * wall) * (height - wall) / 1000, " ml"));
color("SteelBlue") box();
if (with_lid) color("Orange") translate([width + 10, 0, 0]) lid();
