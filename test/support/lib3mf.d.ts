// @3mfconsortium/lib3mf ships no type declarations; this is the part of its API test/support/print-ready.ts uses.
declare module '@3mfconsortium/lib3mf' {
  /** An Embind object: freed with delete(), or Embind warns of a leak. */
  interface Handle {
    delete(): void
  }
  interface Reader extends Handle {
    SetStrictModeActive(strict: boolean): void
    ReadFromFile(path: string): void
    GetWarningCount(): number
    GetWarning(index: number): unknown
  }
  interface Lib3mf {
    FS: { writeFile(path: string, data: Uint8Array): void }
    CWrapper: new () => { CreateModel(): Handle & { QueryReader(format: '3mf'): Reader } }
  }
  export default function lib3mf(): Promise<Lib3mf>
}
