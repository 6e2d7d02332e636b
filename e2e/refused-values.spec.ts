import { expect, test } from '@playwright/test'
import { createConfigurator, expectAccessible, findDemo, logIn, signIn, waitForModelDrawn } from './fixtures'

// Where the model refuses values, as a customer meets it (docs/refused-values.md): the demo spur
// gear's rule (the bore must leave 2 mm of gear) shows on the bore's slider before anyone picks a
// bore it refuses, with the designer's message on hover or tap; picking one says so at once, and
// the build still decides.

const RULE = 'The bore must leave 2 mm of gear around it'

test(
  'a slider shows where the model refuses values, and says why before the build does',
  { tag: '@phone' },
  async ({ page, request }, testInfo) => {
    const { applicationKey } = await findDemo(request, 'Spur gear')
    // A module of 1 mm: 24 teeth leave room for a bore of up to 17.5 mm.
    await page.goto(`/embed/${applicationKey}?gear_module=1`)
    await waitForModelDrawn(page.getByTestId('model-viewer'))

    const track = page.getByTestId('refused-track-Bore')
    const range = track.getByRole('button', { name: new RegExp(`^Bore 18–30 refused: ${RULE}`) })
    await expect(range).toBeVisible({ timeout: 60_000 })
    await expect(page.getByRole('slider', { name: 'Bore' })).toHaveAccessibleDescription(
      new RegExp(`18–30 refused: ${RULE}`),
    )
    await track.scrollIntoViewIfNeeded()
    if (testInfo.project.name === 'phone') await range.tap()
    else await range.hover()
    await expect(track.getByTestId('refused-range-message')).toHaveText(new RegExp(`^18–30 refused: ${RULE}`))
    await page.screenshot({ path: testInfo.outputPath('refused-range.png') })
    await expectAccessible(page)

    // Picked anyway: the message at once, then the build, which still refuses it.
    await page.getByRole('spinbutton', { name: 'Bore' }).fill('20')
    await expect(page.getByTestId('refused-bore')).toContainText(RULE, { timeout: 2000 })
    await expect(page.getByTestId('build-failure')).toContainText(RULE)
    await expect(page.getByRole('link', { name: 'Download STL' })).toHaveCount(0)

    // At a bore of 20 the smaller modules are refused too: their options say so.
    const modules = page.getByRole('combobox', { name: 'Gear module' })
    await expect(modules.locator('option', { hasText: 'refused' })).toHaveText(
      ['0.5', '0.8', '1'].map((module) => `${module} (refused: ${RULE}: a smaller bore, or more or larger teeth)`),
      { timeout: 60_000 },
    )
    await page.screenshot({ path: testInfo.outputPath('refused-picked.png') })
    await expectAccessible(page)
  },
)

test('the studio says where the model refuses values at the defaults, and names a preset it refuses', async ({
  page,
  request,
}, testInfo) => {
  const rim = 'The hole must leave a 4 mm rim'
  const { configuratorId } = await createConfigurator(
    request,
    `Guarded box ${testInfo.testId}`,
    `size = 40; // [20:1:100]\nhole = 10; // [1:1:100]\nassert(hole <= size - 8, "${rim}");\ncube(size);\n`,
  )
  const presets = { fileFormatVersion: '1', parameterSets: { Wide: { size: '40', hole: '36' } } }
  const headers = { authorization: `Bearer ${await logIn(request)}` }
  const uploaded = await request.put(`/api/configurators/${configuratorId}/files/configurator/main.json`, {
    headers,
    data: JSON.stringify(presets),
  })
  expect(uploaded.status()).toBe(202)

  await page.goto(`/studio/configurators/${configuratorId}/files`)
  await signIn(page)
  const refused = page.getByRole('region', { name: 'Refused values' })
  await expect(refused.getByText(`hole: 33–100 refused at the defaults: ${rim}`)).toBeVisible({ timeout: 60_000 })
  await expect(
    refused.getByText(`The preset Wide sits where the model refuses values (hole = 36, size = 40): ${rim}`),
  ).toBeVisible()
  await refused.scrollIntoViewIfNeeded()
  await page.screenshot({ path: testInfo.outputPath('studio-refused-values.png') })
  await expectAccessible(page)
})
