import fs from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { strFromU8, unzipSync } from 'fflate'
import { findDemo, waitForModelDrawn } from './fixtures'

async function download(page: Page, click: () => Promise<void>): Promise<Record<string, Uint8Array>> {
  const downloading = page.waitForEvent('download')
  await click()
  return unzipSync(new Uint8Array(await fs.readFile(await (await downloading).path())))
}

test('a checkbox and a select change the model; the 3MF and the saved session download with those values', async ({
  page,
  request,
}) => {
  const { applicationKey } = await findDemo(request, 'Box with lid')
  await page.goto(`/embed/${applicationKey}`)
  const viewer = page.getByTestId('model-viewer')
  const first = await waitForModelDrawn(viewer)
  // The figures come a moment after the model is drawn.
  await expect(page.getByTestId('fact-width')).toHaveText(/^\d+\.\d mm$/)
  const widthWithLid = await page.getByTestId('fact-width').textContent()

  await page.getByRole('checkbox', { name: 'With lid' }).uncheck()
  const second = await waitForModelDrawn(viewer, first)
  await expect(page.getByTestId('fact-width')).not.toHaveText(widthWithLid ?? '')
  await page.getByRole('combobox', { name: 'Corners' }).selectOption({ label: 'Square' })
  await waitForModelDrawn(viewer, second)
  await expect(page.getByText('Building...')).toBeHidden()

  const threeMf = await download(page, () => page.getByRole('link', { name: 'Download 3MF' }).click())
  expect(strFromU8(threeMf['3D/3dmodel.model']!)).toContain('<object ')

  const saved = await download(page, () => page.getByRole('button', { name: 'Save session' }).click())
  const parameters = JSON.parse(strFromU8(saved['parameters.json']!)) as Record<string, { value: unknown }>
  expect(parameters.with_lid?.value).toBe(false)
  expect(parameters.corners?.value).toBe('square')
  expect(Object.keys(saved)).toEqual(expect.arrayContaining(['model.stl', 'model.3mf', 'log.txt']))
})
