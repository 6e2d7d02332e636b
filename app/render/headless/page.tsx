'use client'

import { useEffect } from 'react'
import { renderHeadless } from '@/lib/render/render-headless'

// The page the server renderer's headless Chromium keeps open (lib/render/server/image-renderer.ts):
// it bundles lib/render for the browser and hands image-renderer.ts window.renderScene.
export default function HeadlessRenderPage() {
  useEffect(() => {
    window.renderScene = renderHeadless
  }, [])
  return null
}
