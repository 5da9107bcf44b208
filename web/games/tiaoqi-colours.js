// @ts-check
// The six camps' colours (a south … f south-east), one hue each; light
// tints of them for the holes a selected piece can reach, dark ones for text.
export const COLOUR = { a: '#d33', b: '#e90', c: '#db2', d: '#2a4', e: '#27c', f: '#94c' };
export const LIGHT = { a: '#f6c4c4', b: '#fbdcae', c: '#f3e9a6', d: '#bfe5c6', e: '#bcd6f3', f: '#e2c9ef' };
export const DARK = { a: '#a11', b: '#a55a00', c: '#806800', d: '#17692b', e: '#1a4f8f', f: '#6a2d8f' };
