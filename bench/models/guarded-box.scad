// The guarded box of issue 49: a rule on the hole that depends on the size.
size = 40; // [20:1:100]
hole = 10; // [1:1:100]
assert(hole <= size - 8, "The hole must leave a 4 mm rim");
difference() {
  cube(size, center = true);
  cylinder(d = hole, h = size + 1, center = true);
}
