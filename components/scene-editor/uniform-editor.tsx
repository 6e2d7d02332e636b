'use client'

import { Button } from '@/components/ui/button'
import { Input, Select } from '@/components/ui/field'
import type { Uniform } from '@/lib/renderers/schemas'

export const UNIFORM_TYPES = ['float', 'int', 'bool', 'vec2', 'vec3', 'vec4', 'color', 'sampler2d'] as const
const VECTOR_SIZES = { vec2: 2, vec3: 3, vec4: 4 } as const

export function defaultUniform(type: Uniform['type'], textures: string[]): Uniform {
  switch (type) {
    case 'float':
    case 'int':
      return { type, value: 0 }
    case 'bool':
      return { type, value: false }
    case 'vec2':
      return { type, value: [0, 0] }
    case 'vec3':
      return { type, value: [0, 0, 0] }
    case 'vec4':
      return { type, value: [0, 0, 0, 1] }
    case 'color':
      return { type, value: '#ffffff' }
    case 'sampler2d':
      return { type, value: { url: textures[0] ?? '', external: false } }
  }
}

interface UniformEditorProps {
  name: string
  uniform: Uniform
  /** Image files of the configurator's renderer directory, relative to it. */
  textures: string[]
  onRename: (name: string) => void
  onChange: (uniform: Uniform) => void
  onRemove: () => void
}

/** One uniform: its GLSL name, type and a value editor fitting the type. */
export function UniformEditor({ name, uniform, textures, onRename, onChange, onRemove }: UniformEditorProps) {
  return (
    <div className="flex flex-col gap-2 rounded-md border border-stone-200 p-3" data-testid={`uniform-${name}`}>
      <div className="flex gap-2">
        <Input
          aria-label="Uniform name"
          value={name}
          onChange={(event) => onRename(event.target.value)}
          className="font-mono"
        />
        <Select
          aria-label={`Type of ${name}`}
          value={uniform.type}
          onChange={(event) => onChange(defaultUniform(event.target.value as Uniform['type'], textures))}
          className="w-28 flex-none"
        >
          {UNIFORM_TYPES.map((type) => (
            <option key={type}>{type}</option>
          ))}
        </Select>
        <Button variant="ghost" aria-label={`Remove uniform ${name}`} onClick={onRemove}>
          ✕
        </Button>
      </div>
      <UniformValue name={name} uniform={uniform} textures={textures} onChange={onChange} />
    </div>
  )
}

function UniformValue({
  name,
  uniform,
  textures,
  onChange,
}: {
  name: string
  uniform: Uniform
  textures: string[]
  onChange: (uniform: Uniform) => void
}) {
  switch (uniform.type) {
    case 'float':
    case 'int':
      return (
        <Input
          aria-label={`Value of ${name}`}
          type="number"
          step={uniform.type === 'int' ? 1 : 'any'}
          value={uniform.value}
          onChange={(event) =>
            Number.isFinite(event.target.valueAsNumber) &&
            onChange({
              type: uniform.type,
              value: uniform.type === 'int' ? Math.trunc(event.target.valueAsNumber) : event.target.valueAsNumber,
            })
          }
        />
      )
    case 'bool':
      return (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={uniform.value}
            onChange={(event) => onChange({ type: 'bool', value: event.target.checked })}
            className="size-4 accent-stone-900"
          />
          Value of {name}
        </label>
      )
    case 'vec2':
    case 'vec3':
    case 'vec4':
      return (
        <div className="grid grid-cols-4 gap-2">
          {uniform.value.map((component, index) => (
            <Input
              key={index}
              aria-label={`${name} ${'xyzw'[index]}`}
              type="number"
              step="any"
              value={component}
              onChange={(event) => {
                if (!Number.isFinite(event.target.valueAsNumber)) return
                const value = [...uniform.value]
                value[index] = event.target.valueAsNumber
                onChange({ type: uniform.type, value } as Uniform)
              }}
            />
          ))}
          <span className="sr-only">{VECTOR_SIZES[uniform.type]} components</span>
        </div>
      )
    case 'color':
      return (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="color"
            aria-label={`Colour of ${name}`}
            value={uniform.value}
            onChange={(event) => onChange({ type: 'color', value: event.target.value })}
            className="h-8 w-12 cursor-pointer rounded border border-stone-300"
          />
          <span className="font-mono text-xs">{uniform.value}</span>
        </label>
      )
    case 'sampler2d':
      return (
        <div className="flex flex-col gap-2">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={uniform.value.external}
              onChange={(event) =>
                onChange({
                  type: 'sampler2d',
                  value: event.target.checked
                    ? { url: 'https://', external: true }
                    : { url: textures[0] ?? '', external: false },
                })
              }
              className="size-4 accent-stone-900"
            />
            External image (http or https URL)
          </label>
          {uniform.value.external ? (
            <Input
              aria-label={`Image URL of ${name}`}
              type="url"
              value={uniform.value.url}
              onChange={(event) => onChange({ type: 'sampler2d', value: { url: event.target.value, external: true } })}
            />
          ) : (
            <Select
              aria-label={`Texture of ${name}`}
              value={uniform.value.url}
              onChange={(event) => onChange({ type: 'sampler2d', value: { url: event.target.value, external: false } })}
            >
              {!textures.includes(uniform.value.url) && (
                <option value={uniform.value.url}>{uniform.value.url || 'Choose a texture'}</option>
              )}
              {textures.map((texture) => (
                <option key={texture}>{texture}</option>
              ))}
            </Select>
          )}
        </div>
      )
  }
}
