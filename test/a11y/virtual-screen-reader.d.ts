/** The browser build of @guidepup/virtual-screen-reader (its package export `./browser.js`) has the main entry's types. */
declare module '@guidepup/virtual-screen-reader/browser.js' {
  export * from '@guidepup/virtual-screen-reader';
}
