'use client'

import { useMutation } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Configurator, type SidePanelContext } from '@/components/configurator/configurator'
import { defaultUniform, UniformEditor } from '@/components/scene-editor/uniform-editor'
import { Button } from '@/components/ui/button'
import { ErrorMessage } from '@/components/ui/error-message'
import { Field, Select } from '@/components/ui/field'
import { Spinner } from '@/components/ui/spinner'
import { useApiQuery } from '@/components/use-api-query'
import { callApi } from '@/lib/endpoints/client'
import type { SceneSettings } from '@/lib/renderers/schemas'

type Material = SceneSettings['materials'][string]

const PREVIEW_DELAY_MS = 300
const SHADER = /\.(vert|frag|glsl|vs|fs)$/i
const IMAGE = /\.(png|jpe?g|webp|gif)$/i

/** The studio's scene editor: materials per part, previewed live on the configurator's model. */
export function SceneEditor({
  configuratorId,
  productName,
  cadType,
}: {
  configuratorId: string
  productName: string
  cadType: string
}) {
  const [draft, setDraft] = useState<SceneSettings | null>(null)
  const [preview, setPreview] = useState<SceneSettings | undefined>(undefined)
  useEffect(() => {
    if (!draft) return
    const timer = setTimeout(() => setPreview(draft), PREVIEW_DELAY_MS)
    return () => clearTimeout(timer)
  }, [draft])
  return (
    <Configurator
      configuratorId={configuratorId}
      auth={{ kind: 'cookie' }}
      initialQuery=""
      canDownloadFinal
      productName={productName}
      cadType={cadType}
      sceneOverride={preview}
      // The scene is saved into the draft: it previews on the draft's files (its shaders and textures).
      preview={{ draft: true }}
      sidePanel={(context) => (
        <SceneEditorPanel configuratorId={configuratorId} context={context} draft={draft} onChange={setDraft} />
      )}
    />
  )
}

interface SceneEditorPanelProps {
  configuratorId: string
  context: SidePanelContext
  draft: SceneSettings | null
  onChange: (draft: SceneSettings) => void
}

function SceneEditorPanel({ configuratorId, context, draft, onChange }: SceneEditorPanelProps) {
  const { sessionId, rendererId, settings, parts } = context
  useEffect(() => {
    // The stored settings passed validation when they were saved.
    if (!draft && settings) onChange(structuredClone(settings))
  }, [draft, settings, onChange])
  const files = useApiQuery('listConfiguratorFiles', { params: { configuratorId } })
  const rendererFiles = (files.data ?? [])
    .map((file) => file.path)
    .filter((path) => path.startsWith('renderer/'))
    .map((path) => path.slice('renderer/'.length))
  const shaders = rendererFiles.filter((path) => SHADER.test(path))
  const textures = rendererFiles.filter((path) => IMAGE.test(path))
  const save = useMutation({
    mutationFn: async ({ scene, rendererId }: { scene: SceneSettings; rendererId: string }) => {
      await callApi('updateScene', { params: { sessionId, rendererId }, json: scene })
      // Sessions opened from now on start from the configurator's renderer/scene.json.
      await callApi('uploadConfiguratorFile', {
        params: { configuratorId, path: ['renderer', 'scene.json'] },
        body: JSON.stringify(scene, null, 2),
        headers: { 'content-type': 'application/json' },
      })
    },
  })

  if (!rendererId)
    return (
      <p className="text-sm text-stone-700">This configurator has no webgl renderer, so there is no scene to edit.</p>
    )
  if (!draft) return <Spinner label="Loading the scene settings" />

  const setMaterial = (key: string, material: Material | null) => {
    const materials = { ...draft.materials }
    if (material) materials[key] = material
    else delete materials[key]
    onChange({ ...draft, materials })
    save.reset()
  }
  const keys = [...new Set([...parts.map((part) => part.key), ...Object.keys(draft.materials)])]

  return (
    <div className="flex flex-col gap-5">
      <div>
        <h2 className="text-lg font-semibold tracking-tight">Scene</h2>
        <p className="text-sm text-stone-600">
          A material paints one part of the model (a colour of the model, numbered in order of appearance) with the
          shaders of the renderer directory. Changes show in the viewer at once; save to make them what customers see.
        </p>
      </div>
      <ErrorMessage error={files.error} />
      {shaders.length === 0 && files.isSuccess && (
        <p className="rounded-md bg-stone-100 px-3 py-2 text-sm text-stone-700">
          Upload vertex and fragment shaders into the renderer directory (Files tab) to paint parts with them.
        </p>
      )}
      {keys.map((key) => {
        const part = parts.find((candidate) => candidate.key === key)
        const material = Object.hasOwn(draft.materials, key) ? draft.materials[key] : undefined
        return (
          <section
            key={key}
            aria-labelledby={`part-${key}`}
            className="flex flex-col gap-3 rounded-lg border border-stone-200 p-4"
          >
            <h3 id={`part-${key}`} className="flex items-center gap-2 text-sm font-semibold">
              {part?.color && (
                <span
                  aria-hidden
                  className="size-3 rounded-full border border-stone-300"
                  style={{ backgroundColor: part.color }}
                />
              )}
              Part {key}
              {!part && <span className="font-normal text-amber-700">(not in the current model)</span>}
            </h3>
            {material ? (
              <MaterialEditor
                partKey={key}
                material={material}
                shaders={shaders}
                textures={textures}
                onChange={(next) => setMaterial(key, next)}
              />
            ) : (
              <div className="flex items-center justify-between gap-2">
                <span className="text-sm text-stone-600">Shown in its own colour</span>
                <Button
                  variant="secondary"
                  disabled={shaders.length === 0}
                  onClick={() =>
                    setMaterial(key, {
                      vertexShader: shaders.find((path) => /\.(vert|vs)$/i.test(path)) ?? shaders[0] ?? '',
                      fragmentShader: shaders.find((path) => /\.(frag|fs)$/i.test(path)) ?? shaders[0] ?? '',
                      uniforms: {},
                    })
                  }
                >
                  Add material for part {key}
                </Button>
              </div>
            )}
          </section>
        )
      })}
      <div className="flex flex-col gap-2 border-t border-stone-200 pt-4">
        <Button onClick={() => save.mutate({ scene: draft, rendererId })} disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save scene'}
        </Button>
        {save.isSuccess && (
          <p role="status" className="text-sm text-green-800">
            Saved: customers see this scene from their next visit.
          </p>
        )}
        <ErrorMessage error={save.error} />
      </div>
    </div>
  )
}

interface MaterialEditorProps {
  partKey: string
  material: Material
  shaders: string[]
  textures: string[]
  onChange: (material: Material | null) => void
}

function MaterialEditor({ partKey, material, shaders, textures, onChange }: MaterialEditorProps) {
  const uniforms = material.uniforms ?? {}
  const setUniforms = (entries: [string, NonNullable<Material['uniforms']>[string]][]) =>
    onChange({ ...material, uniforms: Object.fromEntries(entries) })
  const entries = Object.entries(uniforms)
  return (
    <div className="flex flex-col gap-3">
      {(['vertexShader', 'fragmentShader'] as const).map((stage) => (
        <Field
          key={stage}
          label={stage === 'vertexShader' ? `Vertex shader of part ${partKey}` : `Fragment shader of part ${partKey}`}
        >
          {(control) => (
            <Select
              {...control}
              value={material[stage]}
              onChange={(event) => onChange({ ...material, [stage]: event.target.value })}
            >
              {!shaders.includes(material[stage]) && (
                <option value={material[stage]}>{material[stage]} (missing)</option>
              )}
              {shaders.map((path) => (
                <option key={path}>{path}</option>
              ))}
            </Select>
          )}
        </Field>
      ))}
      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium text-stone-800">Uniforms</span>
        {entries.map(([name, uniform], index) => (
          <UniformEditor
            key={index}
            name={name}
            uniform={uniform}
            textures={textures}
            onRename={(next) =>
              setUniforms(entries.map((entry, position) => (position === index ? [next, entry[1]] : entry)))
            }
            onChange={(next) =>
              setUniforms(entries.map((entry, position) => (position === index ? [entry[0], next] : entry)))
            }
            onRemove={() => setUniforms(entries.filter((_entry, position) => position !== index))}
          />
        ))}
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            onClick={() => setUniforms([...entries, [uniqueName(uniforms), defaultUniform('color', textures)]])}
          >
            Add uniform
          </Button>
          <Button variant="ghost" onClick={() => onChange(null)}>
            Use the model's colour
          </Button>
        </div>
      </div>
    </div>
  )
}

function uniqueName(uniforms: Record<string, unknown>): string {
  let index = Object.keys(uniforms).length + 1
  while (Object.hasOwn(uniforms, `u_value${index}`)) index++
  return `u_value${index}`
}
