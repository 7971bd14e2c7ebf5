import { parentPort, workerData } from 'node:worker_threads';
import { writeProjects, type ProjectBatch } from './projectWriter';

// Worker-thread entry: writes one batch of projects and reports what it wrote.
parentPort?.postMessage(writeProjects(workerData as ProjectBatch));
