import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'cdk.out/**', 'node_modules/**', '**/*.js', '**/*.mjs', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      'no-eval': 'error',
      'no-new-func': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['runtime/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/lib/**', 'aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'] }],
    },
  },
  {
    files: ['lib/definition/**/*.ts', 'lib/compiler/**/*.ts', 'lib/client/**/*.ts', 'lib/local/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'] }],
    },
  },
);
