/**
 * The one door to @google-cloud/storage at run time, imported by gcs.ts on a bucket's first request. Its own
 * module so that the compiled client (scripts/compile.mjs bundles the library and its tree into it) is one
 * chunk with a name, lib/chunks/gcsClient-*.js, that tests/cli/startup.test.ts can see being loaded.
 */
export { Storage } from '@google-cloud/storage';
