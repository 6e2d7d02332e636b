import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { api } from '@/test/support/api-client'
import { expectError, openSession } from '@/test/support/fixtures'
import { lib3mfWarnings, partSolids, readParts, slicerInfo, slicerRoundTrip } from '@/test/support/print-ready'

// Multi-part models as designers write them: each a case of how parts meet.
const MODELS = {
  'touching parts': {
    source: 'size = 10; // [5:20]\ncolor("red") cube(size);\ncolor("blue") translate([size, 0, 0]) cube(5);',
    parts: [
      ['Red', 1000],
      ['Blue', 125],
    ],
  },
  'overlapping parts (the later one wins)': {
    source: 'size = 10; // [5:20]\ncolor("red") cube(size);\ncolor("blue") translate([5, 0, 0]) cube(size);',
    parts: [
      ['Red', 500],
      ['Blue', 1000],
    ],
  },
  'a part inside another': {
    source: 'size = 20; // [10:30]\ncolor("white") cube(size);\ncolor("red") translate([5, 5, 5]) cube(5);',
    parts: [
      ['White', 8000 - 125],
      ['Red', 125],
    ],
  },
  'a colour that only cuts, nested colours, uncoloured geometry': {
    source: `size = 10; // [5:20]
difference() { color("white") cube(size); color("green") translate([5, 5, -1]) cylinder(r = 2, h = 30); }
color("red") { translate([0, 0, size]) cube(5); color("blue") translate([5, 0, size]) cube(5); }
translate([0, 0, -5]) cube([10, 10, 5]);`,
    // Green paints the hole's wall and has no volume; the outer colour wins over the inner blue.
    parts: [
      ['White', null],
      ['Red', 250],
      // Uncoloured geometry is named after the product (the fixture's configurator is "Box").
      ['Box', 500],
    ],
  },
  'text on a plate': {
    source:
      'name = "Ada"; // 10\ncolor("white") ' +
      'cube([40, 14, 2]);\ncolor("crimson") ' +
      'translate([4, 3, 2]) linear_extrude(1) ' +
      'text(name, size = 8, font = "Liberation Sans");',
    parts: [
      ['White', 40 * 14 * 2],
      ['Crimson', null],
    ],
  },
  'a replicad model of two named, coloured B-rep parts, the later one winning what they share': {
    source: `function main({ makeBaseBox, makeCylinder }) {
  return [
    { shape: makeBaseBox(20, 20, 10), name: 'Base', color: 'white' },
    { shape: makeCylinder(4, 15, [0, 0, 5]), name: 'Peg', color: 'crimson' },
  ]
}`,
    fields: { cadType: 'replicad', mainFile: 'main.js' },
    // Curved: the mesh's volume is below the true one by its chords.
    parts: [
      ['Base', null],
      ['Peg', null],
    ],
  },
} as const

describe('3MF for manufacturing', () => {
  for (const [name, { source, parts, ...model }] of Object.entries(MODELS)) {
    it(`${name}: one object of closed, named parts that PrusaSlicer and lib3mf take as they are`, async () => {
      const owner = await openSession(source, 'fields' in model ? model.fields : {})
      const objectInfo = await (
        await api('GET', `/configsessions/${owner.session.id}/objectinfo`, { token: owner.token })
      ).json()
      const response = await api('GET', `/configsessions/${owner.session.id}/model?type=3mf`, { token: owner.token })
      expect(response.status).toBe(200)
      const bytes = new Uint8Array(await response.arrayBuffer())

      const { objects, items } = readParts(bytes)
      expect(objects).toHaveLength(1)
      expect(items).toHaveLength(1)
      const object = objects[0]!
      expect(object.minZ).toBe(0)
      expect(object.parts.map((part) => part.name)).toEqual(parts.map(([partName]) => partName))
      const solids = await partSolids(object.parts)
      for (const solid of solids) expect(solid.status).toBe('NoError')
      parts.forEach(([, volume], k) => volume !== null && expect(solids[k]!.volume).toBeCloseTo(volume, 3))
      const total = solids.reduce((sum, solid) => sum + solid.volume, 0)
      expect(Math.abs(total - objectInfo.volume) / objectInfo.volume).toBeLessThan(0.001)

      const info = await slicerInfo(bytes)
      expect(info).toHaveLength(1)
      // Its number_of_parts counts closed shells: a part with a cavity has two.
      expect(info[0]!).toMatchObject({ manifold: 'yes', min_z: '0.000000' })
      expect(Math.abs(Number(info[0]!.volume) - objectInfo.volume) / objectInfo.volume).toBeLessThan(0.001)

      const again = readParts(await slicerRoundTrip(bytes))
      expect(again.objects).toHaveLength(1)
      expect(again.objects[0]!.parts.map((part) => part.name)).toEqual(parts.map(([partName]) => partName))

      expect(await lib3mfWarnings(bytes)).toEqual([])
    })
  }

  it('a customer text OpenSCAD writes unescaped into its CSG tree: the model as one closed part', async () => {
    const owner = await openSession(MODELS['text on a plate'].source)
    const put = await api('PUT', `/configsessions/${owner.session.id}/parameters`, {
      token: owner.token,
      body: { name: { value: 'Say "hi"' } },
    })
    expect(put.status).toBe(200)
    const objectInfo = await (
      await api('GET', `/configsessions/${owner.session.id}/objectinfo`, { token: owner.token })
    ).json()
    const bytes = new Uint8Array(
      await (
        await api('GET', `/configsessions/${owner.session.id}/model?type=3mf`, { token: owner.token })
      ).arrayBuffer(),
    )
    const object = readParts(bytes).objects[0]!
    expect(object.parts.map((part) => part.name)).toEqual(['White'])
    const [solid] = await partSolids(object.parts)
    expect(solid!.status).toBe('NoError')
    expect(solid!.volume).toBeCloseTo(objectInfo.volume, 1)
    expect((await slicerInfo(bytes))[0]).toMatchObject({ manifold: 'yes' })
  })
})

const settingsOf = (manufacturing: Record<string, unknown>, quality?: Record<string, unknown>) => ({
  extraSettings: { manufacturing, ...(quality && { quality }) },
})

describe('printability and price report', () => {
  it('gives figures per part and for the whole, weight and price from the designer’s materials', async () => {
    const source = 'size = 10; // [5:20]\ncolor("red") cube(size);\ncolor("blue") translate([size, 0, 0]) cube(5);'
    const manufacturing = {
      currency: 'EUR',
      basePrice: 2.5,
      parts: [{ label: 'Body', material: { name: 'PETG', density: 1.27, pricePerCm3: 0.1 } }, { label: 'Cap' }],
    }
    const owner = await openSession(source, settingsOf(manufacturing))
    const response = await api('GET', `/configsessions/${owner.session.id}/objectinfo`, { token: owner.token })
    expect(response.status).toBe(200)
    const { volume, print } = await response.json()
    expect(volume).toBeCloseTo(1125, 6)
    expect(print).toMatchObject({
      quality: 'final',
      estimate: false,
      closed: true,
      fitsBuildVolume: true,
      problems: [],
      minimumWallMm: 0.8,
      buildVolumeMm: [250, 210, 210], // the default printer's, Prusa's MK3S
    })
    expect(
      print.parts.map((part: { name: string; color: string; material: unknown }) => [
        part.name,
        part.color,
        part.material,
      ]),
    ).toEqual([
      ['Body', '#FF0000', { name: 'PETG', density: 1.27, pricePerCm3: 0.1, pricePerKg: null }],
      ['Cap', '#0000FF', { name: 'PLA', density: 1.24, pricePerCm3: null, pricePerKg: null }],
    ])
    const [body, cap] = print.parts
    expect(body.volume).toBeCloseTo(1000, 3)
    expect(body.surfaceArea).toBeCloseTo(600, 3)
    expect(body.boundingBox).toEqual({ minX: 0, maxX: 10, minY: 0, maxY: 10, minZ: 0, maxZ: 10 })
    expect(body.thinnestWall.thickness).toBeCloseTo(10, 3)
    expect(cap.thinnestWall.thickness).toBeCloseTo(5, 3)
    expect(body.weight).toBeCloseTo(1.27, 6)
    expect(cap.weight).toBeCloseTo(0.125 * 1.24, 6)
    expect(print.weight).toBeCloseTo(1.27 + 0.155, 6)
    // 2.50 + 1 cm³ × 0.10 + 0.125 cm³ × nothing
    expect(print.price).toEqual({ amount: '2.60', currency: 'EUR' })
    // The outer surface of the whole: the faces where the parts meet are inside.
    expect(print.surfaceArea).toBeCloseTo(600 + 150 - 2 * 25, 3)

    const { objects } = readParts(
      new Uint8Array(
        await (
          await api('GET', `/configsessions/${owner.session.id}/model?type=3mf`, { token: owner.token })
        ).arrayBuffer(),
      ),
    )
    expect(objects[0]!.parts.map((part) => part.name)).toEqual(['Body', 'Cap'])
  })

  it('flags walls thinner than the minimum and a model larger than the build volume, and says where', async () => {
    const source = 'length = 300; // [10:400]\ncube([length, 20, 5]);\ntranslate([0, 30, 0]) cube([20, 20, 0.4]);'
    const owner = await openSession(source, settingsOf({ minimumWallMm: 1, buildVolumeMm: [250, 210, 220] }))
    const { print } = await (
      await api('GET', `/configsessions/${owner.session.id}/objectinfo`, { token: owner.token })
    ).json()
    expect(print.fitsBuildVolume).toBe(false)
    const rules = print.problems.map((problem: { rule: string; part: number | null }) => [problem.rule, problem.part])
    expect(rules).toEqual([
      ['minimumWall', null],
      ['minimumWall', 0],
      ['buildVolume', null],
    ])
    const [thin, , large] = print.problems
    expect(thin.message).toMatch(/walls down to 0\.4 mm, thinner than the 1 mm minimum/)
    expect(thin.at[1]).toBeGreaterThanOrEqual(30)
    expect(thin.region.minY).toBeGreaterThanOrEqual(30)
    expect(thin.region.maxX).toBeLessThanOrEqual(20)
    expect(large.message).toMatch(
      /300 × 50 × 5 mm: it does not fit the 250 × 210 × 220 mm build volume, however it is turned/,
    )
    expect(print.thinnestWall.thickness).toBeCloseTo(0.4, 3)

    // Shorter and without the thin plate's minimum: the model is fine again.
    const put = await api('PUT', `/configsessions/${owner.session.id}/parameters`, {
      token: owner.token,
      body: { length: { value: 100 } },
    })
    expect(put.status).toBe(200)
    const again = (
      await (await api('GET', `/configsessions/${owner.session.id}/objectinfo`, { token: owner.token })).json()
    ).print
    expect(again.fitsBuildVolume).toBe(true)
    expect(again.problems.map((problem: { rule: string }) => problem.rule)).toEqual(['minimumWall', 'minimumWall'])
  })

  it('refuses settings it cannot price or check, naming them', async () => {
    const owner = await openSession('cube(1);')
    const update = (manufacturing: Record<string, unknown>) =>
      api('PUT', `/configurators/${owner.configuratorId}`, {
        token: owner.token,
        body: { extraSettings: { manufacturing } },
      })
    await expectError(await update({ currency: 'EURO' }), 422, 'unprocessable_entity', /currency.*ISO 4217/)
    await expectError(await update({ basePrice: 3 }), 422, 'unprocessable_entity', /prices need a currency/)
    await expectError(
      await update({ parts: [{ material: { name: 'PLA', density: -1 } }] }),
      422,
      'unprocessable_entity',
      /density/,
    )
    await expectError(await update({ buildVolumeMm: [100, 100] }), 422, 'unprocessable_entity', /buildVolumeMm/)
  })

  it('describes the final quality once it is built, the preview as an estimate until then', async () => {
    const source = 'r = 10; // [5:20]\nsphere(r);'
    const owner = await openSession(source, settingsOf({}, { preview: { $fn: 12 }, final: { $fn: 64 } }))
    const objectInfo = () =>
      api('GET', `/configsessions/${owner.session.id}/objectinfo`, { token: owner.token }).then((response) =>
        response.json(),
      )
    const first = await objectInfo()
    expect(first.print).toMatchObject({ quality: 'preview', estimate: true })
    expect(first.print.volume).toBeCloseTo(first.volume, 6)
    await expect.poll(async () => (await objectInfo()).print.quality, { timeout: 20_000 }).toBe('final')
    const { print, volume } = await objectInfo()
    expect(print.estimate).toBe(false)
    // A finer sphere holds more of the true 4/3·π·r³ than the preview's.
    expect(print.volume).toBeGreaterThan(volume)
    expect(print.volume).toBeLessThan((4 / 3) * Math.PI * 1000)
    expect(print.weight).toBeCloseTo((print.volume / 1000) * 1.24, 6)
  })
})

// Every print warning of the demos and of our own corpus, at their defaults, against PrusaSlicer's
// reading of the same 3MF: a part said not to be closed makes an object it reports as not manifold,
// a model said not to fit measures more than the build volume in its size_x/y/z, a one-part model
// is as many pieces as it counts shells. (Thin walls are ours alone to measure: --info does not tell them.)
const DEMOS = JSON.parse(fs.readFileSync('demo/demos.json', 'utf8')) as {
  slug: string
  mainFile: string
  cadType?: 'openscad' | 'replicad'
  extraSettings: Record<string, unknown>
}[]
const CORPUS = ['customizer-kinds', 'vectors', 'presets/bracket'].map((name) => ({
  slug: name,
  source: fs.readFileSync(`test/corpus/${name}.scad`),
}))
const WARNED = [
  ...DEMOS.map(({ slug, mainFile, cadType, extraSettings }) => ({
    slug,
    source: fs.readFileSync(`demo/${slug}/${mainFile}`),
    fields: { extraSettings, mainFile, cadType },
    names: undefined,
  })),
  ...CORPUS.map((model) => ({ ...model, fields: {}, names: undefined })),
  {
    slug: 'an uncoloured cut: one part named after the product, none of its cut faces',
    source:
      '// a color() named in a comment\nsize = 40; // [10:50]\ndifference() { cube([size, 40, 15]); translate([20, 20, -1]) cylinder(d = 10, h = 17); }\n',
    fields: {},
    names: ['Box'],
  },
  {
    slug: 'an open surface',
    source:
      'size = 10; // [5:20]\npolyhedron([[0, 0, 0], [size, 0, 0], [0, size, 0], [0, 0, size]], [[0, 1, 2], [0, 3, 1], [0, 2, 3]]);\n',
    fields: {},
    names: undefined,
  },
]

describe('what cannot be made is not sold', () => {
  const NAME_TAG = fs.readFileSync('demo/name-tag/main.scad')
  const { extraSettings } = DEMOS.find((demo) => demo.slug === 'name-tag')!

  it('turns a model to fit the printer; one that fits no way has no price and no snapshot, unless the designer allows oversize', async () => {
    const source = 'length = 240; // [10:400]\ncube([20, length, 5]);'
    const volume = { currency: 'EUR', basePrice: 1, buildVolumeMm: [250, 210, 220] }
    const owner = await openSession(source, settingsOf(volume))
    const sessionPath = `/configsessions/${owner.session.id}`
    const objectInfo = async () =>
      (await (await api('GET', `${sessionPath}/objectinfo`, { token: owner.token })).json()).print
    // 240 mm is deeper than the bed's 210, but fits along its 250 mm width.
    expect(await objectInfo()).toMatchObject({ fitsBuildVolume: true, forSale: true, price: { currency: 'EUR' } })

    const set = await api('PUT', `${sessionPath}/parameters`, { token: owner.token, body: { length: { value: 300 } } })
    expect(set.status).toBe(200)
    expect(await objectInfo()).toMatchObject({ fitsBuildVolume: false, forSale: false, price: null })
    await expectError(
      await api('POST', `${sessionPath}/snapshots`, { token: owner.token }),
      409,
      'conflict',
      /not for sale: The model measures 20 × 300 × 5 mm: it does not fit the 250 × 210 × 220 mm build volume/,
    )
    // The interface's model downloads still answer: a shop may own a larger printer.
    expect((await api('GET', `${sessionPath}/model?type=stl`, { token: owner.token })).status).toBe(200)
    expect((await api('GET', `${sessionPath}/finalizedmodel?type=stl`, { token: owner.token })).status).toBe(200)

    const allowed = await api('PUT', `/configurators/${owner.configuratorId}`, {
      token: owner.token,
      body: settingsOf({ ...volume, allowOversize: true }),
    })
    expect(allowed.status).toBe(200)
    const again = await openSession(source, settingsOf({ ...volume, allowOversize: true }))
    const againPath = `/configsessions/${again.session.id}`
    await api('PUT', `${againPath}/parameters`, { token: again.token, body: { length: { value: 300 } } })
    const print = (await (await api('GET', `${againPath}/objectinfo`, { token: again.token })).json()).print
    expect(print).toMatchObject({ fitsBuildVolume: false, forSale: true, price: { currency: 'EUR' } })
    expect(print.problems.map((problem: { rule: string }) => problem.rule)).toContain('buildVolume')
    expect((await api('POST', `${againPath}/snapshots`, { token: again.token })).status).toBe(201)
  })

  it('keeps the name tag’s letters on its plate, and does not sell twenty W’s at letter size 20', async () => {
    const owner = await openSession(NAME_TAG, { extraSettings })
    const sessionPath = `/configsessions/${owner.session.id}`
    for (const [name, font] of [
      ['WWWWWWWWWWWWWWWWWWWW', 'DejaVu Serif'],
      ['MMMM@@%%mmww', 'DejaVu Sans'],
      ['iiiilllrrrffftt', 'DejaVu Sans Mono'],
      ['ÄÖÜ Straße ÆŒ', 'DejaVu Serif'],
    ]) {
      const body = { name: { value: name }, font: { value: font }, text_size: { value: 5 }, with_hole: { value: true } }
      expect((await api('PUT', `${sessionPath}/parameters`, { token: owner.token, body })).status).toBe(200)
      const { print } = await (await api('GET', `${sessionPath}/objectinfo`, { token: owner.token })).json()
      const [plate, letters] = print.parts
      expect(letters.boundingBox.maxX, `${name} in ${font}`).toBeLessThan(plate.boundingBox.maxX)
      expect(letters.boundingBox.minX).toBeGreaterThan(plate.boundingBox.minX)
    }
    const body = { name: { value: 'W'.repeat(20) }, text_size: { value: 20 } }
    expect((await api('PUT', `${sessionPath}/parameters`, { token: owner.token, body })).status).toBe(200)
    const { print } = await (await api('GET', `${sessionPath}/objectinfo`, { token: owner.token })).json()
    expect(print).toMatchObject({ forSale: false, price: null })
  })
})

describe('print warnings PrusaSlicer confirms', () => {
  it.each(WARNED)('$slug', async ({ source, fields, names }) => {
    const owner = await openSession(source, fields)
    const objectInfo = await api('GET', `/configsessions/${owner.session.id}/objectinfo`, { token: owner.token })
    expect(objectInfo.status).toBe(200)
    const { print } = await objectInfo.json()
    const model = await api('GET', `/configsessions/${owner.session.id}/model?type=3mf`, { token: owner.token })
    // A 2D demo is cut, not printed: it has no 3MF, and no printer's warnings.
    if (print.process === 'cut') return void expect([model.status, print.problems]).toEqual([422, []])
    const [info] = await slicerInfo(new Uint8Array(await model.arrayBuffer()))
    const rules = new Set(print.problems.map((problem: { rule: string }) => problem.rule))
    expect(
      rules.has('closed'),
      `closed warnings: ${JSON.stringify(print.problems)}; PrusaSlicer: manifold = ${info!.manifold}`,
    ).toBe(info!.manifold === 'no')
    // Said not to fit however it is turned: then not as placed either.
    const size = [info!.size_x, info!.size_y, info!.size_z].map(Number)
    const exceedsAsPlaced = size.some((length, axis) => length > print.buildVolumeMm[axis] + 0.001)
    expect(rules.has('buildVolume') && !exceedsAsPlaced).toBe(false)
    expect(print.forSale).toBe(!rules.has('buildVolume'))
    // No part of faces alone: every closed part holds a volume.
    for (const part of print.parts) if (part.closed) expect(part.volume).toBeGreaterThan(0)
    if (names) expect(print.parts.map((part: { name: string }) => part.name)).toEqual(names)
    // The pieces the figures say they measure (the box beside its lid: 2), as the slicer counts the shells of a one-part model.
    if (print.parts.length === 1) expect(print.bodies).toBe(Number(info!.number_of_parts))
  })
})
