/** View-model and DOM-building code only: no JupyterLab packages are loaded in tests. */
module.exports = {
  testEnvironment: 'jsdom',
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: {
          module: 'commonjs',
          esModuleInterop: true,
          types: ['jest', 'node']
        }
      }
    ]
  },
  testRegex: 'src/__tests__/.*\\.spec\\.ts$',
  // A hang guard, not a speed test: CI runs jest beside pytest on two cores, where a 4 MiB
  // inflation test once took over 20 s (jest's default would fail it at 5 s).
  testTimeout: 300_000,
  moduleFileExtensions: ['ts', 'js', 'json']
};
