import Link from 'next/link'
import { buttonClasses } from '@/components/ui/button'
import { CAD_TYPES, cadSystem } from '@/lib/cad/engines'

const STEPS = [
  {
    title: 'Model',
    text: `Upload a ${CAD_TYPES.map((type) => cadSystem(type).name).join(' or ')} model. Its parameters become sliders, dropdowns and switches.`,
  },
  { title: 'Style', text: 'Add a scene, materials and shaders so the product looks the way it will be made.' },
  {
    title: 'Sell',
    text: 'Register your shop, paste one iframe, and customers shape the product live and download STL or 3MF.',
  },
]

export interface PublicDemo {
  key: string
  configurator: { name: string; description: string }
}

interface LandingProps {
  isSignedIn: boolean
  demos: PublicDemo[]
  /** The demo shop's address, when it runs and this page is read where it can be reached. */
  demoShopUrl: string | null
}

export function Landing({ isSignedIn, demos, demoShopUrl }: LandingProps) {
  return (
    <main className="mx-auto flex min-h-screen max-w-5xl flex-col gap-16 px-6 py-16 sm:py-24">
      <header className="flex items-center justify-between">
        <span className="text-lg font-semibold tracking-tight">Paraform</span>
        <Link href={isSignedIn ? '/studio' : '/signin'} className={buttonClasses('ghost')}>
          {isSignedIn ? 'Open studio' : 'Sign in'}
        </Link>
      </header>
      <section className="flex max-w-3xl flex-col gap-6">
        <h1 className="text-4xl font-semibold tracking-tight sm:text-5xl">
          Parametric products your customers shape themselves
        </h1>
        <p className="text-lg text-stone-700">
          Paraform turns a parametric CAD model into a live product configurator for your shop: self-hosted, with the
          finished model ready for manufacturing.
        </p>
        <nav aria-label="Get started" className="flex flex-wrap gap-3">
          <Link href={isSignedIn ? '/studio' : '/signin'} className={buttonClasses('primary', 'px-5 py-2.5')}>
            {isSignedIn ? 'Open studio' : 'Sign in to the studio'}
          </Link>
          <Link href="/docs/api" className={buttonClasses('secondary', 'px-5 py-2.5')}>
            API reference
          </Link>
        </nav>
      </section>
      {demos.length > 0 && (
        <section aria-labelledby="demos" className="flex flex-col gap-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="demos" className="text-2xl font-semibold tracking-tight">
              Try a demo, no sign-in needed
            </h2>
            {demoShopUrl && (
              <a href={demoShopUrl} className="text-sm font-medium text-stone-700 underline underline-offset-4">
                See one in the demo shop
              </a>
            )}
          </div>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {demos.map((demo) => (
              <li key={demo.key}>
                <Link
                  href={`/embed/${demo.key}`}
                  className="flex h-full flex-col gap-2 rounded-lg border border-stone-200 bg-white p-5 shadow-sm hover:border-stone-400 focus-visible:outline-2"
                >
                  <span className="text-lg font-semibold">{demo.configurator.name}</span>
                  <span className="text-sm text-stone-700">{demo.configurator.description}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      <ol className="grid gap-4 sm:grid-cols-3">
        {STEPS.map((step, index) => (
          <li
            key={step.title}
            className="flex flex-col gap-2 rounded-lg border border-stone-200 bg-white p-5 shadow-sm"
          >
            <span className="text-sm font-medium text-stone-600">Step {index + 1}</span>
            <h2 className="text-lg font-semibold">{step.title}</h2>
            <p className="text-sm text-stone-700">{step.text}</p>
          </li>
        ))}
      </ol>
    </main>
  )
}
