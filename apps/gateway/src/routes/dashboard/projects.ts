import { z } from 'zod';
import {
  DashboardDeleteEnvironmentBody,
  DashboardEnvironment,
  DashboardEnvironmentList,
  DashboardEnvParams,
  DashboardNameBody,
  DashboardOrgParams,
  DashboardProject,
  DashboardProjectList,
  DashboardProjectParams,
} from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { CSRF_NOTE, SESSION_SECURITY, TAGS, csrfHeaders, environmentJson, projectJson, readErrors, sessionRoute, writeErrors } from './common.ts';

const MANAGE = ' Admins and owners (403 for viewers).';

/** Control plane: projects of an organization and environments of a project. */
export async function dashboardProjectRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  const secured = sessionRoute(deps);
  const common = { tags: TAGS, security: SESSION_SECURITY };

  app.get(
    '/v1/dashboard/organizations/:orgId/projects',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardListProjects',
        summary: 'The projects of an organization',
        description: 'Any member; by name.',
        params: DashboardOrgParams,
        response: { 200: DashboardProjectList, ...readErrors },
      },
    },
    async (request) => ({ data: (await accounts.projects.projects(dashboardActor(request), request.params.orgId)).map(projectJson) }),
  );

  app.post(
    '/v1/dashboard/organizations/:orgId/projects',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardCreateProject',
        summary: 'Create a project',
        description: 'A name taken in the organization: 400 `invalid_request`.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardOrgParams,
        body: DashboardNameBody,
        response: { 201: DashboardProject, ...writeErrors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(projectJson(await accounts.projects.createProject(dashboardActor(request), request.params.orgId, request.body.name))),
  );

  app.get(
    '/v1/dashboard/projects/:projectId',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardGetProject',
        description: 'Any member of its organization. A project of another organization is 404 `not_found`, like an unknown one.',
        summary: 'One project',
        params: DashboardProjectParams,
        response: { 200: DashboardProject, ...readErrors },
      },
    },
    async (request) => projectJson(await accounts.projects.project(dashboardActor(request), request.params.projectId)),
  );

  app.patch(
    '/v1/dashboard/projects/:projectId',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardRenameProject',
        summary: 'Rename a project',
        description: 'A name taken in the organization: 400 `invalid_request`.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardProjectParams,
        body: DashboardNameBody,
        response: { 200: DashboardProject, ...writeErrors },
      },
    },
    async (request) => projectJson(await accounts.projects.renameProject(dashboardActor(request), request.params.projectId, request.body.name)),
  );

  app.delete(
    '/v1/dashboard/projects/:projectId',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardDeleteProject',
        summary: 'Delete an empty project',
        description:
          'Only a project without environments (400 `invalid_request` otherwise): environments are deleted one by ' +
          'one, each confirmed by its name.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardProjectParams,
        response: { 204: z.null().describe('Deleted'), ...writeErrors },
      },
    },
    async (request, reply) => {
      await accounts.projects.deleteProject(dashboardActor(request), request.params.projectId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/dashboard/projects/:projectId/environments',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardListEnvironments',
        summary: 'The environments of a project',
        description: 'Any member; by name.',
        params: DashboardProjectParams,
        response: { 200: DashboardEnvironmentList, ...readErrors },
      },
    },
    async (request) => ({ data: (await accounts.projects.environments(dashboardActor(request), request.params.projectId)).map(environmentJson) }),
  );

  app.post(
    '/v1/dashboard/projects/:projectId/environments',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardCreateEnvironment',
        summary: 'Create an environment',
        description:
          'Made with its token signing key and no API keys: create those next. A name taken in the project: 400.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardProjectParams,
        body: DashboardNameBody,
        response: { 201: DashboardEnvironment, ...writeErrors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(environmentJson(await accounts.projects.createEnvironment(dashboardActor(request), request.params.projectId, request.body.name))),
  );

  app.get(
    '/v1/dashboard/environments/:envId',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardGetEnvironment',
        description: 'Any member of its organization. An environment of another organization is 404 `not_found`, like an unknown one.',
        summary: 'One environment',
        params: DashboardEnvParams,
        response: { 200: DashboardEnvironment, ...readErrors },
      },
    },
    async (request) => environmentJson(await accounts.projects.environment(dashboardActor(request), request.params.envId)),
  );

  app.patch(
    '/v1/dashboard/environments/:envId',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardRenameEnvironment',
        summary: 'Rename an environment',
        description: 'Its id, keys and everything in it stay. A name taken in the project: 400.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardEnvParams,
        body: DashboardNameBody,
        response: { 200: DashboardEnvironment, ...writeErrors },
      },
    },
    async (request) => environmentJson(await accounts.projects.renameEnvironment(dashboardActor(request), request.params.envId, request.body.name)),
  );

  app.delete(
    '/v1/dashboard/environments/:envId',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardDeleteEnvironment',
        summary: 'Delete an environment and everything in it',
        description:
          'The body `{confirm}` must be the environment\'s exact name (400 otherwise). Deletes its keys, signing keys, ' +
          'channels, messages, members, bans, notifications, configuration and webhook ledger; its keys and user ' +
          'tokens stop working on every gateway at once. Not undoable.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardEnvParams,
        body: DashboardDeleteEnvironmentBody,
        response: { 204: z.null().describe('Deleted'), ...writeErrors },
      },
    },
    async (request, reply) => {
      await accounts.projects.deleteEnvironment(dashboardActor(request), request.params.envId, request.body.confirm);
      return reply.code(204).send(null);
    },
  );
}
