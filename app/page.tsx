import Link from 'next/link'

export default function HomePage() {
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-6 px-6 py-24">
      <h1 className="text-4xl font-semibold tracking-tight">Paraform</h1>
      <p className="text-lg text-stone-700">
        Parametric product configurators: upload an OpenSCAD model, register an application for your shop, and let
        customers shape the product live.
      </p>
      <nav className="flex gap-4">
        <Link className="rounded-md bg-stone-900 px-4 py-2 text-white focus-visible:outline-2 focus-visible:outline-offset-2" href="/docs/api">
          API reference
        </Link>
      </nav>
    </main>
  )
}
