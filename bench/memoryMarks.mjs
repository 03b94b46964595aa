// Preloaded by bench/memory.mjs --heap: node --expose-gc --import ./bench/memoryMarks.mjs bin/felt.js build … (FELT_TIMINGS=1)
// At each stage mark of the build thread (site/build/timings.ts prints one line a stage), a full collection, then the
// live heap, printed as `felt heap: <stage>|<live bytes>|<external bytes>`: live bytes a peak cannot hide behind the
// collector's choice of when to collect. At exit, `felt heap: peak live|<bytes>|0`: the most any full collection left
// alive (a lower bound of the live peak: it includes what is alive only inside a stage, such as the search index).
// FELT_HEAP_SNAPSHOT=<stage> also writes a heap snapshot after that stage, into FELT_HEAP_SNAPSHOT_DIR.
import path from 'node:path';
import v8 from 'node:v8';
import { isMainThread } from 'node:worker_threads';

const collect = globalThis.gc;
if (isMainThread && typeof collect === 'function') {
  const write = process.stderr.write.bind(process.stderr);
  const profiler = new v8.GCProfiler();
  profiler.start();
  process.on('exit', () => {
    const full = profiler.stop().statistics.filter((gc) => gc.gcType === 'MarkSweepCompact');
    write(`felt heap: peak live|${Math.max(...full.map((gc) => gc.afterGC.heapStatistics.usedHeapSize))}|0\n`);
  });
  const snapshotAt = process.env.FELT_HEAP_SNAPSHOT;
  process.stderr.write = (chunk, ...rest) => {
    const stage = /^felt timings: (.*?) +-?\d+ ms {2}\(at/.exec(String(chunk))?.[1];
    if (stage !== undefined) {
      // Called from mark() itself: the stage's locals are still on the stack, so what they hold counts as live.
      collect();
      const { used_heap_size: used } = v8.getHeapStatistics();
      write(`felt heap: ${stage}|${used}|${process.memoryUsage().external}\n`);
      if (snapshotAt && stage.startsWith(snapshotAt)) {
        const file = v8.writeHeapSnapshot(path.join(process.env.FELT_HEAP_SNAPSHOT_DIR ?? '.', `felt-${snapshotAt.replace(/\W+/g, '-')}.heapsnapshot`));
        write(`felt heap: snapshot ${file}\n`);
      }
    }
    return write(chunk, ...rest);
  };
}
