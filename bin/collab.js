#!/usr/bin/env node
// CommonJS (bin/package.json says so): starting without the ES module loader saves a few ms of every command.
'use strict'
const { join } = require('node:path')

require('../dist/launch.cjs').loadCli(join(__dirname, '../dist')).main(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})
