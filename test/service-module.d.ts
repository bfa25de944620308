// Types of the virtual module `/__service__.js` served by the reference-service plugin of web-test-runner.config.mjs
// (tsconfig.json maps the path here).
export declare const serviceUrl: string;
export declare const apiKey: string;
