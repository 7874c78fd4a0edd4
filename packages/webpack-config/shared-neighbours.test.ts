import { createRequire } from 'node:module';
import path from 'node:path';
import { muiNeighbourRequests, singletonNeighbourRequests, singletonPackages } from './shared-neighbours.js';

const PACKAGES = path.resolve(__dirname, '..');
const packageDir = (name: string) => path.join(PACKAGES, name.replace('@bimi/', ''));
const packages = singletonPackages({ '@bimi/session': 'workspace:*', '@bimi/ui': 'workspace:*', '@bimi/catalog': 'workspace:*', react: '19.0.0' }, packageDir);
const src = (name: string) => path.join(PACKAGES, name, 'src');
const neighbourRequest = singletonNeighbourRequests(packages);

describe('the neighbours of a package shared as a singleton', () => {
  it('are the packages that hold state, with the modules they export', () => {
    expect(packages.map((pkg) => pkg.name)).toEqual(['@bimi/session', '@bimi/ui']);
  });

  it('are asked for by their share key, so a remote never runs a second copy of the session store', () => {
    expect(neighbourRequest(src('session'), './client')).toBe('@bimi/session/client');
    expect(neighbourRequest(src('session'), './page-state.ts')).toBe('@bimi/session/page-state');
    // A package that names its exports one by one (./RouteTable is ./src/RouteTable.tsx).
    expect(neighbourRequest(src('ui'), './PageIntro')).toBe('@bimi/ui/PageIntro');
  });

  it('leave every other request alone', () => {
    // Not exported: stays the package's own module.
    expect(neighbourRequest(src('ui'), './NewContactForm')).toBeUndefined();
    // Shared by version, not as a singleton: a copy holds no state.
    expect(neighbourRequest(src('catalog'), './products')).toBeUndefined();
    // Out of the package, and not relative.
    expect(neighbourRequest(src('session'), '../../contracts/src/auth')).toBeUndefined();
    expect(neighbourRequest(src('session'), 'zod/mini')).toBeUndefined();
    expect(neighbourRequest(path.join(PACKAGES, '..', 'shell', 'src'), './client')).toBeUndefined();
  });
});

describe("the neighbours inside MUI's core", () => {
  const SHELL = path.resolve(__dirname, '../../shell');
  const mui = path.dirname(createRequire(path.join(SHELL, 'package.json')).resolve('@mui/material/package.json'));
  const request = muiNeighbourRequests(SHELL);

  it("are asked for by their public subpath, so a remote uses the shell's styling engine", () => {
    expect(request(path.join(mui, 'Button'), '../ButtonBase/index.mjs')).toBe('@mui/material/ButtonBase');
    expect(request(path.join(mui, 'Link'), '../zero-styled/index.mjs')).toBe('@mui/material/zero-styled');
  });

  it('leave the other folders, helper files and requests outside MUI alone', () => {
    // Not a core folder: the Modal stays in the lazy chunks of the parts that use it.
    expect(request(path.join(mui, 'Drawer'), '../Modal/index.mjs')).toBeUndefined();
    expect(request(path.join(mui, 'Button'), './buttonClasses.mjs')).toBeUndefined();
    expect(request(path.join(SHELL, 'src'), '../ButtonBase/index.mjs')).toBeUndefined();
    expect(request(path.join(mui, 'Button'), 'react')).toBeUndefined();
  });
});
