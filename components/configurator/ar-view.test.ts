import { describe, expect, it } from 'vitest'
import { arDeviceOf, quickLookHref, sceneViewerIntent } from '@/components/configurator/ar-view'

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const IPAD_AS_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'
const PIXEL =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36'

describe('AR on each device', () => {
  it('tells iOS (an iPad as a Mac with touch too), Android and desktops apart', () => {
    expect(arDeviceOf(IPHONE, 5)).toBe('ios')
    expect(arDeviceOf(IPAD_AS_MAC, 5)).toBe('ios')
    expect(arDeviceOf(IPAD_AS_MAC, 0)).toBe('desktop')
    expect(arDeviceOf(PIXEL, 5)).toBe('android')
  })

  it('links Quick Look without scaling and Scene Viewer by an intent holding the GLB and a way back', () => {
    expect(quickLookHref('https://p.example/m.usdz?key=k')).toBe(
      'https://p.example/m.usdz?key=k#allowsContentScaling=0',
    )
    const intent = sceneViewerIntent('https://p.example/m?type=glb&key=a b', 'Name tag', 'https://p.example/c?x=1')
    const [address, extras] = intent.split('#Intent;')
    const query = new URL(address!.replace(/^intent:/, 'https:')).searchParams
    expect(query.get('file')).toBe('https://p.example/m?type=glb&key=a b')
    expect(query.get('mode')).toBe('ar_preferred')
    expect(query.get('resizable')).toBe('false')
    expect(query.get('title')).toBe('Name tag')
    expect(extras).toBe(
      'scheme=https;package=com.google.android.googlequicksearchbox;action=android.intent.action.VIEW;' +
        'S.browser_fallback_url=https%3A%2F%2Fp.example%2Fc%3Fx%3D1;end;',
    )
  })
})
