import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { expect, test as base, type Page } from '@playwright/test'
import { ADMIN } from '../test/support/start-server'
import { expectAccessible, logIn, signIn, waitForModelDrawn } from './fixtures'

const SCAD = 'width = 40; // [10:1:100]\ncube([width, 20, 10]);\n'
const SCENE = '{"materials": {}}\n'
const VERTEX_SHADER = 'void main() { gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0); }\n'
const FRAGMENT_SHADER = 'uniform vec3 tint;\nvoid main() { gl_FragColor = vec4(tint, 1.0); }\n'

interface Designer {
  email: string
  password: string
  /** A bearer token, for seeding data through the API. */
  token: string
}

// Each test signs in as a designer of its own, so specs can run in parallel.
const test = base.extend<{ designer: Designer }>({
  designer: async ({ request }, use) => {
    const adminToken = await logIn(request, ADMIN)
    const credentials = { email: `designer-${randomUUID()}@example.test`, password: `password ${randomUUID()}` }
    const created = await request.post('/api/users', {
      data: credentials,
      headers: { authorization: `Bearer ${adminToken}` },
    })
    expect(created.status()).toBe(201)
    await use({ ...credentials, token: await logIn(request, credentials) })
  },
})

// Without colour transitions axe never measures a button halfway between two looks.
test.use({ contextOptions: { reducedMotion: 'reduce' } })

async function dropFile(page: Page, name: string, content: string) {
  const dataTransfer = await page.evaluateHandle(
    ([fileName, text]) => {
      const transfer = new DataTransfer()
      transfer.items.add(new File([text], fileName))
      return transfer
    },
    [name, content] as const,
  )
  await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer })
}

test('a designer signs in, builds a configurator, registers a shop and signs out', async ({ page, designer }) => {
  // Seven steps, four of them with an accessibility scan: slower than one default timeout on 2 cores.
  test.setTimeout(180_000)
  const name = `Box ${randomUUID().slice(0, 8)}`

  await test.step('the studio asks for a sign-in first', async () => {
    await page.goto('/studio')
    await expect(page).toHaveURL(/\/signin\?next=%2Fstudio$/)
    await page.getByLabel('Email').fill(designer.email)
    await page.getByLabel('Password').fill('not the password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert').filter({ hasText: /wrong/ })).toBeVisible()
    await expect(page).toHaveURL(/\/signin/)
    await expectAccessible(page)
    await signIn(page, designer)
    await expect(page).toHaveURL(/\/studio$/)
    await expect(page.getByText('No configurators yet')).toBeVisible()
    await expectAccessible(page)
  })

  await test.step('create a configurator', async () => {
    await page.getByLabel('Name').fill(name)
    await page.getByRole('button', { name: 'Create configurator' }).click()
    // A new model opens in its editor, on the starter model (e2e/first-minute.spec.ts); this designer brings their own.
    await expect(page).toHaveURL(/\/studio\/configurators\/[0-9a-f-]+\/editor$/)
    await page.getByRole('link', { name: 'Files' }).click()
    await expect(page).toHaveURL(/\/studio\/configurators\/[0-9a-f-]+\/files$/)
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Files' })).toHaveAttribute('aria-current', 'page')
  })

  await test.step('upload the model by drag-and-drop and the scene with the file picker', async () => {
    await dropFile(page, 'main.scad', SCAD)
    const modelUpload = page.getByRole('progressbar', { name: 'Upload of configurator/main.scad' })
    await expect(modelUpload).toHaveAttribute('value', '1')
    await expect(page.getByRole('listitem').filter({ has: modelUpload })).toContainText('Uploaded')

    await page.getByLabel('Upload into').selectOption('renderer')
    // The keyboard way: the picker button, pressed with Enter, opens the file chooser.
    await page.getByRole('button', { name: 'Choose files…' }).focus()
    const fileChooser = page.waitForEvent('filechooser')
    await page.keyboard.press('Enter')
    await (
      await fileChooser
    ).setFiles([
      { name: 'scene.json', mimeType: 'application/json', buffer: Buffer.from(SCENE) },
      { name: 'plain.vert', mimeType: 'text/plain', buffer: Buffer.from(VERTEX_SHADER) },
      { name: 'tint.frag', mimeType: 'text/plain', buffer: Buffer.from(FRAGMENT_SHADER) },
    ])
    for (const file of ['scene.json', 'plain.vert', 'tint.frag']) {
      await expect(
        page
          .getByRole('listitem')
          .filter({ has: page.getByRole('progressbar', { name: `Upload of renderer/${file}` }) }),
      ).toContainText('Uploaded')
    }

    await expect(page.getByRole('button', { name: 'Delete configurator/main.scad' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Delete renderer/scene.json' })).toBeVisible()
    await expectAccessible(page)
  })

  await test.step('view the model source', async () => {
    await page.getByRole('button', { name: 'View configurator/main.scad' }).click()
    await expect(page.getByRole('region', { name: 'Contents of configurator/main.scad' })).toContainText(
      'cube([width, 20, 10]);',
    )
  })

  await test.step('see the parameters customers will get, and paint part 0 with a shader material', async () => {
    await page.getByRole('link', { name: 'Parameters' }).click()
    await expect(page.getByRole('slider', { name: 'Width' })).toHaveValue('40')
    await waitForModelDrawn(page.getByTestId('model-viewer'))

    await page.getByRole('link', { name: 'Scene' }).click()
    await waitForModelDrawn(page.getByTestId('model-viewer'))
    await page.getByRole('button', { name: 'Add material for part 0' }).click()
    await expect(page.getByLabel('Fragment shader of part 0')).toHaveValue('tint.frag')
    await page.getByRole('button', { name: 'Add uniform' }).click()
    await page.getByLabel('Uniform name').fill('tint')
    await page.getByLabel('Colour of tint').fill('#00ff00')
    await page.getByRole('button', { name: 'Save scene' }).click()
    await expect(page.getByText('Saved: customers see this scene')).toBeVisible()
  })

  await test.step('edit settings: invalid extra settings are explained inline, valid ones saved', async () => {
    await page.getByRole('link', { name: 'Settings' }).click()
    await page.getByLabel('Description').fill('A box you can size')
    const extraSettings = page.getByLabel('Extra settings (JSON)')
    await extraSettings.fill('{\n  "quality": {"preview": {"$fn": 24}\n')
    await expect(extraSettings).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByText(/^Invalid JSON at line \d+, column \d+/)).toBeVisible()
    await expect(page.getByRole('button', { name: 'Save settings' })).toBeDisabled()

    await extraSettings.fill('{"limits": {"buildSeconds": -1}}')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByText(/^limits\.buildSeconds: /)).toBeVisible()

    await extraSettings.fill('{"quality": {"preview": {"$fn": 24}}}')
    await expect(extraSettings).not.toHaveAttribute('aria-invalid', 'true')
    await page.getByLabel('Renderer', { exact: true }).selectOption('headless')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
    await expectAccessible(page)

    await page.reload()
    await expect(page.getByLabel('Description')).toHaveValue('A box you can size')
    await expect(page.getByLabel('Renderer', { exact: true })).toHaveValue('headless')
    await expect(page.getByLabel('Extra settings (JSON)')).toHaveValue(/"\$fn": 24/)
  })

  await test.step('register an application: secret hidden until revealed, embed snippet shown', async () => {
    await page.getByRole('link', { name: 'Applications' }).click()
    await expect(page.getByText('No shop uses this configurator yet')).toBeVisible()
    await page.getByLabel('Name').fill('Web shop')
    await page.getByLabel('Domain').fill('shop.example.com')
    await page.getByRole('button', { name: 'Register application' }).click()
    await expect(page.getByRole('heading', { name: 'Web shop' })).toBeVisible()

    const secret = page.getByTestId('secret-key')
    await expect(secret).toHaveText(/^•+$/)
    await page.getByRole('button', { name: 'Reveal' }).click()
    await expect(secret).toHaveText(/^[^•]{16,}$/)
    await page.getByRole('button', { name: 'Hide' }).click()
    await expect(secret).toHaveText(/^•+$/)
    await page.getByRole('button', { name: 'Reveal' }).click()

    const key = await page
      .getByRole('definition')
      .filter({ has: page.getByRole('button', { name: 'Copy Key (X-API-KEY)' }) })
      .locator('code')
      .textContent()
    await expect(page.getByTestId('embed-snippet')).toHaveText(
      `<iframe src="${new URL(page.url()).origin}/embed/${key}" title="${name}" style="width:100%;height:640px;border:0" allow="fullscreen"></iframe>`,
    )
    // A webhook to a private address is refused beside its field; a public one gets a signing secret.
    const webhookUrl = page.getByLabel('Webhook URL')
    await webhookUrl.fill('http://192.168.1.10/orders')
    await page.getByRole('button', { name: 'Save webhook' }).click()
    await expect(page.getByText(/192\.168\.1\.10 is not a public address/)).toBeVisible()
    await expect(webhookUrl).toHaveAttribute('aria-invalid', 'true')
    await webhookUrl.fill('https://shop.example.com/paraform-webhook')
    await page.getByRole('button', { name: 'Save webhook' }).click()
    await expect(page.getByText('Signing secret')).toBeVisible()
    await expect(webhookUrl).not.toHaveAttribute('aria-invalid', 'true')
    await expectAccessible(page)
  })

  await test.step('sign out: the studio is closed again, a deep link returns after signing in', async () => {
    const applicationsPath = new URL(page.url()).pathname
    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(/\/signin$/)
    await page.goto('/studio')
    await expect(page).toHaveURL(/\/signin\?next=%2Fstudio$/)

    await page.goto(applicationsPath)
    await expect(page).toHaveURL(`/signin?next=${encodeURIComponent(applicationsPath)}`)
    await signIn(page, designer)
    await expect(page).toHaveURL(applicationsPath)
    await expect(page.getByRole('button', { name: /Web shop/ })).toBeVisible()
  })
})

test('a designer copies a file from another configurator and deletes it after confirming', async ({
  page,
  request,
  designer,
}) => {
  const headers = { authorization: `Bearer ${designer.token}` }
  async function seedConfigurator(name: string): Promise<string> {
    const created = await request.post('/api/configurators', { data: { name, mainFile: 'main.scad' }, headers })
    expect(created.status()).toBe(201)
    return ((await created.json()) as { UUID: string }).UUID
  }
  const source = `Library ${randomUUID().slice(0, 8)}`
  const sourceId = await seedConfigurator(source)
  const upload = await request.put(`/api/configurators/${sourceId}/files/configurator/lib/shapes.scad`, {
    data: 'module rounded() {}\n',
    headers,
  })
  expect(upload.status()).toBe(202)
  const targetId = await seedConfigurator(`Shelf ${randomUUID().slice(0, 8)}`)

  await page.goto(`/studio/configurators/${targetId}/files`)
  await signIn(page, designer)
  await expect(page.getByText('No model files yet')).toBeVisible()

  await page.getByLabel('From configurator').selectOption({ label: source })
  await page.getByLabel('File', { exact: true }).selectOption('configurator/lib/shapes.scad')
  await expect(page.getByLabel('Copy to')).toHaveValue('configurator/lib/shapes.scad')
  await page.getByRole('button', { name: 'Copy file' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Copied to configurator/lib/shapes.scad' })).toBeVisible()
  await expect(page.getByText('lib/', { exact: true })).toBeVisible()

  await page.getByRole('button', { name: 'Delete configurator/lib/shapes.scad' }).click()
  await expect(page.getByRole('group', { name: 'Delete configurator/lib/shapes.scad?' })).toBeVisible()
  await page.getByRole('button', { name: 'Cancel' }).click()
  await page.getByRole('button', { name: 'Delete configurator/lib/shapes.scad' }).click()
  await page
    .getByRole('group', { name: 'Delete configurator/lib/shapes.scad?' })
    .getByRole('button', { name: 'Delete' })
    .click()
  await expect(page.getByText('No model files yet')).toBeVisible()

  const remaining = await request.get(`/api/configurators/${targetId}/files`, { headers })
  expect(await remaining.json()).toEqual([])
})

test("a designer picks the print quote's printer, print settings and filament, or uploads a config", async ({
  page,
  request,
  designer,
}) => {
  const headers = { authorization: `Bearer ${designer.token}` }
  const created = await request.post('/api/configurators', {
    data: { name: `Quote ${randomUUID().slice(0, 8)}`, mainFile: 'main.scad' },
    headers,
  })
  expect(created.status()).toBe(201)
  const { UUID: configuratorId } = (await created.json()) as { UUID: string }
  await page.goto(`/studio/configurators/${configuratorId}`)
  await signIn(page, designer)

  const profile = page.getByLabel('Profile', { exact: true })
  const printer = page.getByLabel('Printer', { exact: true })
  const print = page.getByLabel('Print settings')
  const filament = page.getByLabel('Filament')
  const extraSettings = page.getByLabel('Extra settings (JSON)')
  await expect(profile).toHaveValue('default')
  await profile.selectOption('presets')
  await expect(printer).toHaveValue('Original Prusa i3 MK3S & MK3S+')
  await expect(print).toHaveValue('0.20mm QUALITY @MK3')
  await expect(extraSettings).toHaveValue(/"printer": "Original Prusa i3 MK3S & MK3S\+"/)

  // A printer brings the print settings that suit it, its own default chosen; the filament stays where it suits.
  await printer.selectOption('Original Prusa MINI & MINI+')
  await expect(print).toHaveValue('0.15mm QUALITY @MINI')
  await expect(filament).toHaveValue('Prusament PLA')
  await expect(print.locator('option', { hasText: '@MK3' })).toHaveCount(0)
  await filament.selectOption('Prusament PETG @MINI')
  await expect(page.getByText('Its bed and highest print, the build volume')).toBeVisible()
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
  const saved = await request.get(`/api/configurators/${configuratorId}`, { headers })
  expect(((await saved.json()) as { extraSettings: unknown }).extraSettings).toEqual({
    manufacturing: {
      slicer: {
        vendor: 'PrusaResearch',
        printer: 'Original Prusa MINI & MINI+',
        print: '0.15mm QUALITY @MINI',
        filament: 'Prusament PETG @MINI',
      },
    },
  })

  // An uploaded config that would run a program is refused on saving, naming the key.
  await profile.selectOption('upload')
  await page.getByLabel('Config file').setInputFiles({
    name: 'ours.ini',
    mimeType: 'text/plain',
    buffer: Buffer.from(
      'bed_shape = 0x0,200x0,200x200,0x200\nnozzle_diameter = 0.4\nlayer_height = 0.2\npost_process = /bin/sh evil\n',
    ),
  })
  await expect(page.getByText('Now: ours.')).toBeVisible()
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText(/manufacturing\.slicer\.config: `post_process` may not be set/).first()).toBeVisible()
  await expect(profile).toHaveAttribute('aria-invalid', 'true')

  await profile.selectOption('default')
  await expect(extraSettings).toHaveValue('{}')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
})

test('a designer uploads a project zip and picks its main file when the archive leaves it open', async ({
  page,
  request,
  designer,
}) => {
  const headers = { authorization: `Bearer ${designer.token}` }
  const created = await request.post('/api/configurators', {
    data: { name: `Bins ${randomUUID().slice(0, 8)}`, mainFile: 'main.scad' },
    headers,
  })
  const configuratorId = ((await created.json()) as { UUID: string }).UUID
  const zip = zipSync({
    'bin.scad': strToU8('include <lib/dims.scad>\ncube([WIDTH, 10, 5]);\n'),
    'baseplate.scad': strToU8('include <lib/dims.scad>\ncube([WIDTH, WIDTH, 1]);\n'),
    lib: { 'dims.scad': strToU8('WIDTH = 42;\n') },
  })

  await page.goto(`/studio/configurators/${configuratorId}/files`)
  await signIn(page, designer)
  await page
    .getByLabel('Project archive to upload')
    .setInputFiles({ name: 'bins.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) })
  const choose = page.getByRole('group', { name: 'Choose the main file' })
  await expect(choose.getByLabel('Main file').locator('option')).toHaveText(['baseplate.scad', 'bin.scad'])
  await choose.getByLabel('Main file').selectOption('bin.scad')
  await choose.getByRole('button', { name: 'Use as main file' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'Unpacked 3 files; the main file is bin.scad.' }),
  ).toBeVisible()
  await expect(page.getByText('lib/', { exact: true })).toBeVisible()
  await expect(page.getByRole('status', { name: 'Preparation' })).toContainText(
    /Prepared for customers in [\d.]+ s: 1 model \(the defaults\) built\./,
  )

  const configurator = await request.get(`/api/configurators/${configuratorId}`, { headers })
  expect(((await configurator.json()) as { mainFile: string }).mainFile).toBe('bin.scad')
})

test("a customer picks one of the model's presets, and the designer saves the current values as another", async ({
  page,
  request,
  designer,
}) => {
  const headers = { authorization: `Bearer ${designer.token}` }
  const corpus = (name: string) =>
    fs.readFileSync(path.join(import.meta.dirname, '../test/corpus/presets', name), 'utf8')
  const created = await request.post('/api/configurators', {
    data: { name: `Bracket ${randomUUID().slice(0, 8)}`, mainFile: 'bracket.scad' },
    headers,
  })
  const configuratorId = ((await created.json()) as { UUID: string }).UUID
  for (const name of ['bracket.scad', 'bracket.json']) {
    expect(
      (
        await request.put(`/api/configurators/${configuratorId}/files/configurator/${name}`, {
          data: corpus(name),
          headers,
        })
      ).status(),
    ).toBe(202)
  }
  const registered = await request.post(`/api/configurators/${configuratorId}/applications`, {
    data: { name: 'Shop', domain: 'shop.example.com' },
    headers,
  })
  const application = await request.get(`/api/applications/${((await registered.json()) as { UUID: string }).UUID}`, {
    headers,
  })
  const { key } = (await application.json()) as { key: string }

  await page.goto(`/embed/${key}`)
  await waitForModelDrawn(page.getByTestId('model-viewer'))
  await page.getByLabel('Preset').selectOption('Large')
  await expect(page.getByRole('spinbutton', { name: 'Width' })).toHaveValue('38')
  await expect(page.getByRole('checkbox', { name: 'Countersunk' })).not.toBeChecked()
  await expect(page.getByTestId('fact-width')).toHaveText('38.0 mm')

  await page.goto(`/studio/configurators/${configuratorId}/parameters`)
  await signIn(page, designer)
  await page.getByRole('spinbutton', { name: 'Depth' }).fill('44')
  await page.getByLabel('Save these values as preset').fill('Deep one')
  await page.getByRole('button', { name: 'Save preset' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved preset Deep one.' })).toBeVisible()
  const file = await request.get(`/api/configurators/${configuratorId}/files/configurator/bracket.json`, { headers })
  expect(
    ((await file.json()) as { parameterSets: Record<string, Record<string, string>> }).parameterSets['Deep one'],
  ).toMatchObject({ depth: '44', width: '30' })
})

test('an admin installs a library from a zip in the studio; a designer sees it listed', async ({ page, designer }) => {
  const name = `shapes${randomUUID().slice(0, 8)}`
  const zip = zipSync({ [`${name}-main`]: { 'part.scad': strToU8('module part() cube(5);\n') } })
  await page.goto('/studio/libraries')
  await signIn(page, ADMIN)
  await page
    .getByLabel('Library archive to install')
    .setInputFiles({ name: 'lib.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) })
  await expect(page.getByRole('status').filter({ hasText: `Installed ${name} (1 file).` })).toBeVisible()
  await expect(page.getByRole('cell', { name, exact: true })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Fonts' })).toContainText('Liberation Sans')
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Sign out' }).click()
  // Signed out once the sign-in page shows: a page opened before then still carried the admin's cookie.
  await expect(page).toHaveURL(/\/signin$/)

  await page.goto('/studio/libraries')
  await signIn(page, designer)
  await expect(page.getByRole('cell', { name, exact: true })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Install a library' })).toBeHidden()
})
