// Spur gear with involute teeth, a bore and an optional hub.

/* [Teeth] */
// Number of teeth
teeth = 24; // [8:1:80]
// Module: pitch diameter divided by teeth, in mm
gear_module = 2; // [0.5, 0.8, 1, 1.25, 1.5, 2, 2.5, 3]
// Pressure angle in degrees
pressure_angle = 20; // [14.5, 20, 25]

/* [Body] */
// Gear thickness
thickness = 6; // [2:0.5:30]
// Bore diameter
bore = 5; // [2:0.5:30]
// Add a hub around the bore
with_hub = true;
// Hub height above the gear
hub_height = 6; // [2:1:20]

$fn = 64;

pitch_r = teeth * gear_module / 2;
base_r = pitch_r * cos(pressure_angle);
outer_r = pitch_r + gear_module;
root_r = max(pitch_r - 1.25 * gear_module, bore / 2 + 1);

assert(bore <= 2 * (pitch_r - 1.25 * gear_module) - 4,
       "The bore must leave 2 mm of gear around it: a smaller bore, or more or larger teeth");

function involute(r, t) = r * [cos(t) + t * PI / 180 * sin(t), sin(t) - t * PI / 180 * cos(t)];
function roll_angle(r) = sqrt(max(r * r / (base_r * base_r) - 1, 0)) * 180 / PI;
function rotate2(p, a) = [p[0] * cos(a) - p[1] * sin(a), p[0] * sin(a) + p[1] * cos(a)];

// Half a tooth's thickness at the pitch circle, as an angle, plus the involute offset there.
half_tooth = 90 / teeth + (tan(pressure_angle) - pressure_angle * PI / 180) * 180 / PI;

module tooth() {
  steps = 8;
  flank = [for (i = [0:steps]) involute(base_r, roll_angle(base_r + (outer_r - base_r) * i / steps))];
  polygon(concat(
    [[0, 0]],
    [for (p = flank) rotate2(p, -half_tooth)],
    [for (i = [steps:-1:0]) rotate2([flank[i][0], -flank[i][1]], half_tooth)]
  ));
}

module gear_2d() {
  union() {
    circle(r = root_r);
    for (i = [0:teeth - 1]) rotate(i * 360 / teeth) intersection() { tooth(); circle(r = outer_r); }
  }
}

echo(str("pitch diameter: ", 2 * pitch_r, " mm, outside diameter: ", 2 * outer_r, " mm"));
color("Goldenrod") difference() {
  union() {
    linear_extrude(thickness) gear_2d();
    if (with_hub) cylinder(d = bore + 8, h = thickness + hub_height);
  }
  translate([0, 0, -1]) cylinder(d = bore, h = thickness + hub_height + 2);
}
