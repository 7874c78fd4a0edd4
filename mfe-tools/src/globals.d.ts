/** The remote's build version (package.json, or MF_BUILD_VERSION for a deploy). */
declare const __APP_VERSION__: string;
