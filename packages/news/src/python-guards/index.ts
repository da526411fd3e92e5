/** The Python both handed-out scripts share (the page's download script, info's hub recipe); no dependencies. */
export { PYTHON_GUARDS } from './python-guards.ts';
