import { test } from '@playwright/test'
import { ADMIN } from '../test/support/start-server'
import { expectAccessible, findDemo, waitForModelDrawn } from './fixtures'

// The pages the studio spec does not walk through, each checked by axe-core once drawn.
test.use({ contextOptions: { reducedMotion: 'reduce' } })

test('the landing and sign-in pages', async ({ page }) => {
  await page.goto('/')
  await expectAccessible(page)
  await page.goto('/signin')
  await expectAccessible(page)
})

test('the customer pages: embed and configure', async ({ page, request }) => {
  const { configuratorId, applicationKey } = await findDemo(request, 'Name tag')
  await page.goto(`/embed/${applicationKey}`)
  await waitForModelDrawn(page.getByTestId('model-viewer'))
  await expectAccessible(page)

  await page.request.post('/api/auth/session', { data: ADMIN })
  await page.goto(`/configure/${configuratorId}`)
  await waitForModelDrawn(page.getByTestId('model-viewer'))
  await expectAccessible(page)
})

test("the studio's parameters and scene tabs", async ({ page, request }) => {
  const { configuratorId } = await findDemo(request, 'Spur gear')
  await page.request.post('/api/auth/session', { data: ADMIN })
  for (const tab of ['parameters', 'scene']) {
    await page.goto(`/studio/configurators/${configuratorId}/${tab}`)
    await waitForModelDrawn(page.getByTestId('model-viewer'))
    await expectAccessible(page)
  }
})
