import { expect, test } from '@playwright/test'
import { countModelPixels, expectAccessible, findDemo, signIn, waitForModelDrawn } from './fixtures'

// A B-rep engine beside OpenSCAD, and 2D models for cutters (issue 46), as customers and designers meet them.

test('the replicad bracket is drawn, follows its sliders and offers its STEP', async ({ page, request }) => {
  const { applicationKey } = await findDemo(request, 'Mounting bracket')
  await page.goto(`/embed/${applicationKey}`)
  const viewer = page.getByTestId('model-viewer')
  const first = await waitForModelDrawn(viewer, 0, 30_000)
  await expect(page.getByTestId('fact-width')).toHaveText('40.0 mm')
  const depth = page.getByRole('spinbutton', { name: 'Depth' })
  await depth.fill('55')
  await depth.press('Enter')
  await waitForModelDrawn(viewer, first)
  await expect(page.getByTestId('fact-width')).toHaveText('55.0 mm')
  const step = page.getByRole('link', { name: 'Download STEP' })
  await expect(step).toBeVisible()
  const file = await request.get((await step.getAttribute('href'))!)
  expect(file.status()).toBe(200)
  expect((await file.text()).startsWith('ISO-10303-21;')).toBe(true)
  expect(await countModelPixels(page, viewer)).toBeGreaterThan(2000)
  await expectAccessible(page)
  await page.screenshot({ path: test.info().outputPath('bracket.png') })
})

test('the name sign is drawn flat, measured by its area, and downloads as SVG and DXF', async ({ page, request }) => {
  const { applicationKey } = await findDemo(request, 'Name sign')
  await page.goto(`/embed/${applicationKey}`)
  const viewer = page.getByTestId('model-viewer')
  await waitForModelDrawn(viewer, 0, 30_000)
  await expect(page.getByTestId('fact-area')).toHaveText(/cm²$/)
  await expect(page.getByTestId('fact-height')).toHaveCount(0)
  await expect(page.getByText(/A flat design for a laser cutter/)).toBeVisible()
  await expect(page.getByRole('link', { name: 'Download SVG' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Download DXF' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Download STL' })).toHaveCount(0)
  const svg = await request.get((await page.getByRole('link', { name: 'Download SVG' }).getAttribute('href'))!)
  expect(svg.headers()['content-type']).toBe('image/svg+xml')
  expect(await countModelPixels(page, viewer)).toBeGreaterThan(2000)
  await page.screenshot({ path: test.info().outputPath('name-sign.png') })
})

test('a designer starts a replicad configurator: JavaScript in the editor, and an error on its line', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await page.goto('/studio')
  await signIn(page)
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Bracket ${Date.now()}`)
  await page.getByLabel('CAD system').selectOption('replicad')
  await expect(page.getByLabel('Main file')).toHaveValue('main.js')
  await page.getByRole('button', { name: 'Create configurator' }).click()
  await expect(page).toHaveURL(/\/studio\/configurators\/[0-9a-f-]+\/editor$/)
  const source = page.getByLabel('Source of configurator/main.js')
  await expect(source).toContainText('const defaultParams')
  const viewer = page.getByRole('region', { name: 'Preview of the draft' }).getByTestId('model-viewer')
  await waitForModelDrawn(viewer, 0, 60_000)
  // JavaScript's grammar colours keywords apart from the names around them.
  const keyword = source.locator('span', { hasText: /^const$/ }).first()
  const name = source.locator('span', { hasText: /^defaultParams$/ }).first()
  expect(await keyword.evaluate((element) => getComputedStyle(element).color)).not.toBe(
    await name.evaluate((element) => getComputedStyle(element).color),
  )

  await source.click()
  await page.keyboard.press('ControlOrMeta+End')
  await page.keyboard.insertText('\nfunction broken() {}\nbroken(1)\nthrow new Error("no bracket today")\n')
  await expect(page.getByRole('status', { name: 'Problems in this file' })).toHaveText('1 error in this file.', {
    timeout: 60_000,
  })
  const marked = page.locator('.cm-line', { has: page.locator('.cm-lintRange-error') })
  await expect(marked).toHaveCount(1)
  await expect(marked).toContainText('throw new Error("no bracket today")')
  await page.screenshot({ path: test.info().outputPath('replicad-editor-error.png') })
})
