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
  moduleFileExtensions: ['ts', 'js', 'json']
};
