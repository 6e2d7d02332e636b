// The scene settings a renderer keeps (interface section 2, "Scene settings"). They are
// validated where they are stored; scene building still treats every value as untrusted.

/** A sampler2d uniform's value: a path in the configurator's `renderer` directory, or an external http(s) URL. */
export interface SamplerValue {
  url: string
  external: boolean
}

export interface UniformSetting {
  type: string
  value: unknown
}

/** Paints one part: shader paths are relative to the configurator's `renderer` directory. */
export interface MaterialSetting {
  vertexShader: string
  fragmentShader: string
  uniforms?: Record<string, UniformSetting>
}

export interface SceneSettings {
  /** Keyed by part index ("0" paints part 0). */
  materials: Record<string, MaterialSetting>
}
