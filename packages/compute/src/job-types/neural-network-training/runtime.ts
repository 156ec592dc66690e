import type * as TensorFlowCore from '@tensorflow/tfjs-core';
import type * as TensorFlowLayers from '@tensorflow/tfjs-layers';

// TensorFlow.js is loaded only where a network is trained or checked: importing it costs a
// process about 50 MB of memory, which every other kernel (and every kernel thread) would pay
// if @fabric/compute imported it statically. The kernel's entry and the server await
// loadTensorFlow() once; the synchronous code below it reads tensorFlow().

export interface TensorFlowRuntime {
  core: typeof TensorFlowCore;
  layers: typeof TensorFlowLayers;
}

let loaded: TensorFlowRuntime | undefined;

/** Loads tfjs-core, tfjs-layers and the pure-JavaScript cpu backend, and selects that backend. */
export async function loadTensorFlow(): Promise<TensorFlowRuntime> {
  if (loaded) return loaded;
  const [core, layers, cpu] = await Promise.all([
    import('@tensorflow/tfjs-core'),
    import('@tensorflow/tfjs-layers'),
    // Registers the backend; its version is read so no bundler drops the module as unused.
    import('@tensorflow/tfjs-backend-cpu'),
  ]);
  // Production mode only drops tfjs's console advice ("use tfjs-node") and debug checks.
  core.enableProdMode();
  await core.setBackend('cpu');
  if (core.getBackend() !== 'cpu') {
    throw new Error(`TensorFlow.js could not select its cpu backend (${cpu.version_cpu})`);
  }
  loaded = { core, layers };
  return loaded;
}

/** The loaded runtime; training or checking a network before loadTensorFlow() is a bug. */
export function tensorFlow(): TensorFlowRuntime {
  if (!loaded) {
    throw new Error('TensorFlow.js is not loaded: await loadTensorFlow() before using a network');
  }
  return loaded;
}
