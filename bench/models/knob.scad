// A knurled knob that names no colour, about 27,000 triangles: the bench's large model.
height = 30; // [10:60]
ridges = 48; // [12:96]

difference() {
  union() {
    cylinder(h = height, r = 20, $fn = 192);
    for (i = [0:ridges - 1]) rotate(i * 360 / ridges) translate([20, 0, 0]) cylinder(h = height, r = 1.5, $fn = 48);
  }
  translate([0, 0, height / 2]) sphere(r = 14, $fn = 150);
}
