export declare const SERVER_KEEP_ALIVE_MS: number;
