/** Types for site/pictures/cardEncoder.cjs (plain CommonJS, also run by the early share-card thread). */
export declare const CARD_JPEG: { readonly quality: number };
export declare function encodeCard(sharp: typeof import('sharp').default, svg: string): Promise<Buffer>;
