/**
 * Which environments this node believes have no webhook, learnt from each commit's answer. The
 * write leaves out the delivery bodies of those environments (no JSON to build for them) and
 * checks, in the same statement, that none of them has a webhook now: if one has, the
 * statement fails as a whole, the belief is dropped and the batch is written again with them.
 * So a belief that is out of date costs one retry, never a delivery (commit-batch.ts).
 */
export class WebhookBelief {
  readonly #without = new Set<string>();

  hookless(environmentId: string): boolean {
    return this.#without.has(environmentId);
  }

  learn(environments: readonly string[], hooked: readonly string[]): void {
    const withHook = new Set(hooked);
    for (const environmentId of environments) {
      if (withHook.has(environmentId)) this.#without.delete(environmentId);
      else this.#without.add(environmentId);
    }
    // bounded: an environment seen once long ago is simply looked at again
    if (this.#without.size > 100_000) this.#without.clear();
  }

  forget(environments: readonly string[]): void {
    for (const environmentId of environments) this.#without.delete(environmentId);
  }
}
