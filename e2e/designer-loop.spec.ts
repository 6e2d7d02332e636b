import fs from 'node:fs'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { countModelPixels, expectAccessible, logIn, signIn, waitForModelDrawn } from './fixtures'

const DEMO = path.join(import.meta.dirname, '../demo')
const NAME_TAG = fs.readFileSync(path.join(DEMO, 'name-tag/main.scad'), 'utf8')

/** The demo name tag (its files and settings) as a configurator of its own: other specs use the seeded one at the same time. */
async function copyNameTag(request: APIRequestContext) {
  const headers = { authorization: `Bearer ${await logIn(request)}` }
  const demos = JSON.parse(fs.readFileSync(path.join(DEMO, 'demos.json'), 'utf8')) as {
    slug: string
    extraSettings: object
  }[]
  const { extraSettings } = demos.find((demo) => demo.slug === 'name-tag')!
  const created = await request.post('/api/configurators', {
    headers,
    data: { name: `Name tag ${randomUUID().slice(0, 8)}`, mainFile: 'main.scad', extraSettings },
  })
  const { UUID: configuratorId } = (await created.json()) as { UUID: string }
  for (const name of ['main.scad', 'main.json']) {
    const response = await request.put(`/api/configurators/${configuratorId}/files/configurator/${name}`, {
      headers,
      data: fs.readFileSync(path.join(DEMO, 'name-tag', name)),
    })
    expect(response.status()).toBe(202)
  }
  const registered = await request.post(`/api/configurators/${configuratorId}/applications`, {
    headers,
    data: { name: 'Shop', domain: 'localhost' },
  })
  const { UUID: applicationId } = (await registered.json()) as { UUID: string }
  const { key } = (await (await request.get(`/api/applications/${applicationId}`, { headers })).json()) as {
    key: string
  }
  // Release 1: publishing waits for the draft's preparation (its first answer is 409 while it runs).
  await expect(async () =>
    expect(
      (
        await request.post(`/api/configurators/${configuratorId}/releases`, { headers, data: { note: 'As shipped' } })
      ).status(),
    ).toBe(201),
  ).toPass({ timeout: 120_000 })
  return { configuratorId, applicationKey: key }
}

/** The customer page of the shop, its model drawn. */
async function openShopPage(page: Page, applicationKey: string) {
  await page.goto(`/embed/${applicationKey}`)
  await waitForModelDrawn(page.getByTestId('model-viewer'))
}

/** Replaces the editor's whole text, as a paste would. */
async function replaceSource(page: Page, source: string) {
  await replaceSourceOf(page, 'configurator/main.scad', source)
}

async function replaceSourceOf(page: Page, path: string, source: string) {
  const editor = page.getByLabel(`Source of ${path}`)
  await editor.click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.insertText(source)
}

test('a designer edits the name tag in the browser, sees it build, publishes it and rolls it back', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000)
  const { configuratorId, applicationKey } = await copyNameTag(request)
  const customer = await browser.newPage()
  await openShopPage(customer, applicationKey)
  await expect(customer.getByRole('spinbutton', { name: 'Text size' })).toHaveValue('10')

  await page.goto(`/studio/configurators/${configuratorId}/editor`)
  await signIn(page)
  const preview = page.getByRole('region', { name: 'Preview of the draft' })
  const viewer = preview.getByTestId('model-viewer')
  let drawn = await waitForModelDrawn(viewer)
  await expect(page.getByLabel('Source of configurator/main.scad')).toContainText('text_size = 10;')

  await test.step('a changed default rebuilds the preview, and the Customizer follows', async () => {
    await replaceSource(page, NAME_TAG.replace('text_size = 10;', 'text_size = 14;'))
    // Saved at once, without waiting for the pause in typing.
    await page.keyboard.press('ControlOrMeta+s')
    await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved')
    drawn = await waitForModelDrawn(viewer, drawn, 60_000)
    await expect(preview.getByRole('spinbutton', { name: 'Text size' })).toHaveValue('14')
    await expect(page.getByRole('status', { name: 'Problems in this file' })).toHaveText('No problems in this file.')
  })

  await test.step('a syntax error is marked on its line, and the last good model stays, marked', async () => {
    await replaceSource(
      page,
      NAME_TAG.replace('text_size = 10;', 'text_size = 14;').replace('thickness = 2;', 'thickness = 2 +;'),
    )
    await expect(page.getByRole('status', { name: 'Problems in this file' })).toHaveText('1 error in this file.', {
      timeout: 60_000,
    })
    const marked = page.locator('.cm-line', { has: page.locator('.cm-lintRange-error') })
    await expect(marked).toHaveCount(1)
    await expect(marked).toContainText('thickness = 2 +;')
    await expect(page.locator('.cm-lint-marker-error')).toHaveCount(1)
    // The model of the last good source is still drawn, and said not to be the source's.
    await expect(viewer).toHaveAttribute('data-state', 'not-built')
    await expect(preview.getByTestId('build-failure')).toContainText('Parser error: syntax error')
    await expect(preview.getByText('Shown: the last model that could be made, not the values you set.')).toBeVisible()
    expect(await countModelPixels(page, viewer)).toBeGreaterThan(2000)
    await page.screenshot({ path: test.info().outputPath('editor-syntax-error.png') })
  })

  await test.step('undoing the error builds again', async () => {
    await page.getByLabel('Source of configurator/main.scad').click()
    await page.keyboard.press('ControlOrMeta+z')
    await expect(page.getByLabel('Source of configurator/main.scad')).not.toContainText('2 +;')
    await expect(page.getByRole('status', { name: 'Problems in this file' })).toHaveText('No problems in this file.', {
      timeout: 60_000,
    })
    drawn = await waitForModelDrawn(viewer, drawn, 60_000)
    await expectAccessible(page)
  })

  await test.step('publishing makes release 2; the open customer page keeps release 1, a new one gets the change', async () => {
    await page.getByRole('link', { name: 'Releases' }).click()
    await page.getByLabel('What changed').fill('Larger letters')
    // The draft's preparation may still run: publishing says so, and is tried again.
    await expect(async () => {
      await page.getByRole('button', { name: 'Publish', exact: true }).click()
      await expect(page.getByRole('status').filter({ hasText: 'Published release 2' })).toBeVisible({ timeout: 3_000 })
    }).toPass({ timeout: 120_000 })
    await expect(page.getByRole('listitem', { name: 'Release 2' })).toContainText('Customers get this')
    await expectAccessible(page)
    await page.screenshot({ path: test.info().outputPath('releases.png') })

    // The page open during the publish still configures its release.
    const before = Number(await customer.getByTestId('model-viewer').getAttribute('data-model-version'))
    await customer.getByRole('spinbutton', { name: 'Text size' }).fill('12')
    await customer.getByRole('spinbutton', { name: 'Text size' }).press('Enter')
    await waitForModelDrawn(customer.getByTestId('model-viewer'), before, 60_000)
    const fresh = await browser.newPage()
    await openShopPage(fresh, applicationKey)
    await expect(fresh.getByRole('spinbutton', { name: 'Text size' })).toHaveValue('14')
    await fresh.close()
  })

  await test.step('comparing shows the changed default; rolling back gives new customers release 1 again', async () => {
    await expect(page.getByRole('region', { name: 'Changes from release 1 to release 2' })).toContainText(
      'text_size: default 10 → 14',
    )
    await expect(page.getByLabel('Diff of configurator/main.scad')).toContainText('+text_size = 14;')
    await page.getByRole('button', { name: 'Roll back to release 1' }).click()
    await expect(page.getByRole('listitem', { name: 'Release 1' })).toContainText('Customers get this')
    const fresh = await browser.newPage()
    await openShopPage(fresh, applicationKey)
    await expect(fresh.getByRole('spinbutton', { name: 'Text size' })).toHaveValue('10')
  })

  await test.step('two tabs saving the same file: the second is told, and offered the newer version', async () => {
    await page.getByRole('link', { name: 'Editor' }).click()
    await expect(page.getByLabel('Source of configurator/main.scad')).toContainText('text_size = 14;')
    const other = await page.context().newPage()
    await other.goto(`/studio/configurators/${configuratorId}/editor`)
    await replaceSource(
      other,
      NAME_TAG.replace('text_size = 10;', 'text_size = 14;').replace('margin = 4;', 'margin = 5;'),
    )
    await expect(other.getByRole('status', { name: 'Save state' })).toHaveText('Saved')

    await replaceSource(
      page,
      NAME_TAG.replace('text_size = 10;', 'text_size = 14;').replace('relief = 1;', 'relief = 1.2;'),
    )
    const conflict = page.getByRole('alert').filter({ hasText: 'This file was saved elsewhere' })
    await expect(conflict).toBeVisible()
    await expect(conflict).toContainText('margin = 5;')
    await conflict.getByRole('button', { name: 'Load the newer version' }).click()
    await expect(page.getByLabel('Source of configurator/main.scad')).toContainText('margin = 5;')
    await expect(page.getByLabel('Source of configurator/main.scad')).not.toContainText('relief = 1.2;')
    await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved')
  })

  await test.step('new, rename and delete files from the tree', async () => {
    await page.getByLabel('New file name').fill('parts/ring.scad')
    await page.getByRole('button', { name: 'New', exact: true }).click()
    await expect(page.getByRole('heading', { name: 'configurator/parts/ring.scad' })).toBeVisible()
    await replaceSourceOf(page, 'configurator/parts/ring.scad', 'module ring() cylinder(d = 5, h = 2);\n')
    await expect(page.getByRole('status', { name: 'Save state' })).toHaveText('Saved')

    page.once('dialog', (dialog) => void dialog.accept('configurator/parts/loop.scad'))
    await page.getByRole('button', { name: 'Rename configurator/parts/ring.scad' }).click()
    await expect(page.getByRole('heading', { name: 'configurator/parts/loop.scad' })).toBeVisible()
    await expect(page.getByLabel('Source of configurator/parts/loop.scad')).toContainText('module ring()')
    await expect(page.getByRole('button', { name: 'Edit configurator/parts/ring.scad' })).toHaveCount(0)

    await page.getByRole('button', { name: 'Delete configurator/parts/loop.scad' }).click()
    await page
      .getByRole('group', { name: 'Delete configurator/parts/loop.scad?' })
      .getByRole('button', { name: 'Delete' })
      .click()
    await expect(page.getByRole('button', { name: 'Edit configurator/parts/loop.scad' })).toHaveCount(0)
    await expect(page.getByRole('heading', { name: 'configurator/main.scad' })).toBeVisible()

    // A name that climbs out of the configurator is refused, and said why.
    await page.getByLabel('New file name').fill('../outside.scad')
    await page.getByRole('button', { name: 'New', exact: true }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid file path' })).toBeVisible()
  })
})

test('the editor and the releases page on a phone @phone-only', async ({ page, request }) => {
  test.setTimeout(180_000)
  const { configuratorId } = await copyNameTag(request)
  await page.goto(`/studio/configurators/${configuratorId}/editor`)
  await signIn(page)
  await expect(page.getByLabel('Source of configurator/main.scad')).toContainText('text_size = 10;')
  await waitForModelDrawn(page.getByRole('region', { name: 'Preview of the draft' }).getByTestId('model-viewer'))
  await expectAccessible(page)
  await page.screenshot({ path: test.info().outputPath('editor-phone.png'), fullPage: true })
  await page.getByRole('link', { name: 'Releases' }).click()
  await expect(page.getByRole('listitem', { name: 'Release 1' })).toContainText('Customers get this')
  await expectAccessible(page)
  await page.screenshot({ path: test.info().outputPath('releases-phone.png'), fullPage: true })
})
