/** The subset of WHATWG fetch the core uses; passed in so tests can count, fail or delay requests. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>
