import type { RtmError } from './errors.ts';

type Answered = (frame: Record<string, unknown>) => void;
type Refused = (error: RtmError) => void;

/** The refs of this client's frames, and the requests (`auth`, `ping`) waiting for the frame that answers their ref. */
export class Requests {
  #next = 1;
  readonly #waiting = new Map<number, { answered: Answered; refused: Refused }>();

  /** A ref no other frame of this client has used. */
  nextRef(): number {
    return this.#next++;
  }

  /** A new request's ref; `answered` or `refused` is told once, unless the connection is lost first. */
  add(answered: Answered, refused: Refused): number {
    const ref = this.nextRef();
    this.#waiting.set(ref, { answered, refused });
    return ref;
  }

  /** True when `ref` was a request's (it is answered and forgotten). */
  answer(ref: unknown, frame: Record<string, unknown>): boolean {
    const request = typeof ref === 'number' ? this.#waiting.get(ref) : undefined;
    if (!request) return false;
    this.#waiting.delete(ref as number);
    request.answered(frame);
    return true;
  }

  refuse(ref: unknown, error: RtmError): boolean {
    const request = typeof ref === 'number' ? this.#waiting.get(ref) : undefined;
    if (!request) return false;
    this.#waiting.delete(ref as number);
    request.refused(error);
    return true;
  }

  /** The connection is gone: its requests will never be answered. */
  clear(): void {
    this.#waiting.clear();
  }
}
