// Vectors of one to four numbers, with each range form the Customizer knows.
// Built by default: a 42 x 42 x 7 mm block.

/* [Vectors] */
// One number, no range
one = [3];
// Two numbers up to 10
two = [2, 0]; // [10]
// Three numbers from 0 to 100
size = [42, 42, 7]; // [0:100]
// Four numbers in steps of 0.5
corners = [1, 1.5, 2, 2.5]; // [0:0.5:5]
// Two numbers in a spinbox of step 0.25
nudge = [0.25, -0.5]; // 0.25
// Five numbers are no parameter
five = [1, 2, 3, 4, 5];
// A default outside its range widens it
wide = [120, 5]; // [0:100]

cube(size);
