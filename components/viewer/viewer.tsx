'use client'

import dynamic from 'next/dynamic'
import { Spinner } from '@/components/ui/spinner'

/** The 3D viewer, loaded in the browser only (three.js needs WebGL and window). */
export const Viewer = dynamic(() => import('@/components/viewer/model-viewer').then((module) => module.ModelViewer), {
  ssr: false,
  loading: () => (
    <div className="flex h-full w-full items-center justify-center">
      <Spinner label="Loading the 3D viewer" />
    </div>
  ),
})

/** Starts loading the viewer's code (three.js and the scene) now, beside the requests that come before the first model. */
export function preloadViewer(): void {
  void import('@/components/viewer/model-viewer')
}
