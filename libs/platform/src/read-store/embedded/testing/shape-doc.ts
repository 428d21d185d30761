/** A document whose field names are its own: `<prefix><k>_a`, … and a nested object of its own shape. */
export function shapeDoc(prefix: string, k: number) {
  return { id: `${prefix}${k}`, n: k, [`${prefix}${k}_a`]: `text ${k}`, [`${prefix}${k}_b`]: { [`${prefix}${k}_inner`]: k * 2, list: [k, { [`${prefix}${k}_deep`]: true }] } };
}
