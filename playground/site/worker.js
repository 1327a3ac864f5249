// The engine's thread: renders requests with the WebAssembly module the page compiled,
// and answers the editor's hover and completion from the last render.
// The page terminates this worker when a render runs too long; a render that traps (a
// panic, the memory budget, the stack) is reported and the page starts a fresh worker.

import init, { complete, hover, render, stopped } from "./pkg/ytt_playground.js";

let ready = null;

self.onmessage = async ({ data }) => {
  if (data.module) {
    ready = init({ module_or_path: data.module });
    await ready;
    // on the page's clock (a worker's starts when the worker does)
    self.postMessage({ ready: performance.timeOrigin + performance.now() });
    return;
  }
  await ready;
  if (data.query) {
    let answer = null;
    let broken = false;
    try {
      answer = JSON.parse((data.query === "hover" ? hover : complete)(JSON.stringify(data.at)));
    } catch (err) {
      // a trap leaves the instance unusable: the page starts a fresh worker
      broken = err instanceof WebAssembly.RuntimeError;
    }
    self.postMessage({ queryId: data.queryId, answer, broken });
    return;
  }
  const start = performance.now();
  try {
    const response = JSON.parse(render(JSON.stringify(data.request)));
    self.postMessage({ id: data.id, response, ms: performance.now() - start });
  } catch (err) {
    let why = null;
    try {
      why = stopped();
    } catch {
      // the instance is unusable: the page replaces the worker
    }
    if (!why && err instanceof RangeError) {
      why = "The render nested too deep for the browser's stack and was stopped.";
    }
    self.postMessage({ id: data.id, stopped: why ?? `The render stopped: ${err}`, broken: true });
  }
};
