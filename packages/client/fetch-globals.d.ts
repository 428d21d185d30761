// The generated client names the DOM's `BodyInit`; Node's fetch (undici) has the same type, but not as a global.
type BodyInit = import('undici-types').BodyInit;
