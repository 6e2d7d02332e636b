export default function EmbedNotFound() {
  return (
    <main className="mx-auto flex max-w-md flex-col gap-3 px-6 py-24 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">This configurator is not available</h1>
      <p className="text-stone-700">
        The shop's link may be out of date, or the product was taken down. Please go back to the shop and try again from
        there.
      </p>
    </main>
  )
}
