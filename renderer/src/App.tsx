export function App() {
  return <main>Gateway Playground</main>;
}
