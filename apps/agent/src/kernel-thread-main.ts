// Entry of a kernel worker thread when the agent runs from source (see kernels.ts).
import { runKernelThread } from './kernel-thread.ts';

runKernelThread();
