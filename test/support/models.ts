/**
 * OpenSCAD lines that count to the parameter `n`, taking time but no memory: 400,000 take about
 * a second, 1e12 never end within any time limit. Nested ranges, because OpenSCAD stops a
 * recursion after a million calls and refuses a range of over a million elements.
 */
export const COUNT_TO_N = `
n = 0; // [0:1:1e12]
steps = [for (i = [0:1:ceil(n / 1e8) - 1]) for (j = [0:1:min(ceil(n / 1e4), 1e4) - 1]) for (k = [0:1:min(n, 1e4) - 1]) if (k < 0) k];
echo(n + len(steps));
`
