import { z } from 'zod';
import {
  DashboardDeleteEnvironmentBody,
  DashboardEnvParams,
  DashboardEnvironment,
  DashboardEnvironmentList,
  DashboardNameBody,
  DashboardOrgParams,
  DashboardProject,
  DashboardProjectList,
  DashboardProjectParams,
} from '../../dashboard.ts';
import type { Operations } from '../operation.ts';
import { CSRF_NOTE, MANAGE, common, csrfHeaders, readErrors, writeErrors } from './common.ts';

/** Control plane: projects of an organization and environments of a project. */
export const dashboardProjectOperations = {
  dashboardListProjects: {
    method: 'GET',
    url: '/v1/dashboard/organizations/:orgId/projects',
    schema: {
      ...common,
      operationId: 'dashboardListProjects',
      summary: 'The projects of an organization',
      description: 'Any member; by name.',
      params: DashboardOrgParams,
      response: { 200: DashboardProjectList, ...readErrors },
    },
  },
  dashboardCreateProject: {
    method: 'POST',
    url: '/v1/dashboard/organizations/:orgId/projects',
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
  dashboardGetProject: {
    method: 'GET',
    url: '/v1/dashboard/projects/:projectId',
    schema: {
      ...common,
      operationId: 'dashboardGetProject',
      description: 'Any member of its organization. A project of another organization is 404 `not_found`, like an unknown one.',
      summary: 'One project',
      params: DashboardProjectParams,
      response: { 200: DashboardProject, ...readErrors },
    },
  },
  dashboardRenameProject: {
    method: 'PATCH',
    url: '/v1/dashboard/projects/:projectId',
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
  dashboardDeleteProject: {
    method: 'DELETE',
    url: '/v1/dashboard/projects/:projectId',
    schema: {
      ...common,
      operationId: 'dashboardDeleteProject',
      summary: 'Delete an empty project',
      description:
        'Only a project without environments (400 `invalid_request` otherwise): environments are deleted one by ' +
        'one, each confirmed by its name.' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardProjectParams,
      response: { 204: z.null().describe('Deleted'), ...writeErrors },
    },
  },
  dashboardListEnvironments: {
    method: 'GET',
    url: '/v1/dashboard/projects/:projectId/environments',
    schema: {
      ...common,
      operationId: 'dashboardListEnvironments',
      summary: 'The environments of a project',
      description: 'Any member; by name.',
      params: DashboardProjectParams,
      response: { 200: DashboardEnvironmentList, ...readErrors },
    },
  },
  dashboardCreateEnvironment: {
    method: 'POST',
    url: '/v1/dashboard/projects/:projectId/environments',
    schema: {
      ...common,
      operationId: 'dashboardCreateEnvironment',
      summary: 'Create an environment',
      description: 'Made with its token signing key and no API keys: create those next. A name taken in the project: 400.' + MANAGE + CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardProjectParams,
      body: DashboardNameBody,
      response: { 201: DashboardEnvironment, ...writeErrors },
    },
  },
  dashboardGetEnvironment: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId',
    schema: {
      ...common,
      operationId: 'dashboardGetEnvironment',
      description: 'Any member of its organization. An environment of another organization is 404 `not_found`, like an unknown one.',
      summary: 'One environment',
      params: DashboardEnvParams,
      response: { 200: DashboardEnvironment, ...readErrors },
    },
  },
  dashboardRenameEnvironment: {
    method: 'PATCH',
    url: '/v1/dashboard/environments/:envId',
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
  dashboardDeleteEnvironment: {
    method: 'DELETE',
    url: '/v1/dashboard/environments/:envId',
    schema: {
      ...common,
      operationId: 'dashboardDeleteEnvironment',
      summary: 'Delete an environment and everything in it',
      description:
        "The body `{confirm}` must be the environment's exact name (400 otherwise). Deletes its keys, signing keys, " +
        'channels, messages, members, bans, notifications, configuration and webhook ledger; its keys and user ' +
        'tokens stop working on every gateway at once. Not undoable.' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardEnvParams,
      body: DashboardDeleteEnvironmentBody,
      response: { 204: z.null().describe('Deleted'), ...writeErrors },
    },
  },
} as const satisfies Operations;
