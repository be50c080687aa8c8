/** An engine process that runs out of heap as soon as it is started (for the host's OOM path). */
process.on('message', () => {
  const hold: number[][] = [];
  for (;;) hold.push(new Array(1_000_000).fill(Math.random()));
});
