// Test helper: rewrites one file with writeJsonAtomic as fast as it can until it is killed.
import { writeJsonAtomic } from '../atomic-file';

const file = process.argv[2];
let v = Number(process.argv[3] ?? 0);
let announced = false;
for (;;) {
  const size = 1000 + ((v * 7919) % 200_000);
  await writeJsonAtomic(file, { v, size, payload: 'x'.repeat(size) });
  v++;
  if (!announced) {
    // The parent kills only once writes are under way, whatever the machine's load.
    process.stdout.write('writing\n');
    announced = true;
  }
}
