import { dashboardProjectOperations } from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { environmentJson, projectJson, sessionRoute } from './common.ts';

/** Control plane: projects of an organization and environments of a project. */
export async function dashboardProjectRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  const secured = sessionRoute(deps);

  app.route({
    ...dashboardProjectOperations.dashboardListProjects,
    ...secured,
    handler: async (request) => ({ data: (await accounts.projects.projects(dashboardActor(request), request.params.orgId)).map(projectJson) }),
  });

  app.route({
    ...dashboardProjectOperations.dashboardCreateProject,
    ...secured,
    handler: async (request, reply) =>
      reply.code(201).send(projectJson(await accounts.projects.createProject(dashboardActor(request), request.params.orgId, request.body.name))),
  });

  app.route({
    ...dashboardProjectOperations.dashboardGetProject,
    ...secured,
    handler: async (request) => projectJson(await accounts.projects.project(dashboardActor(request), request.params.projectId)),
  });

  app.route({
    ...dashboardProjectOperations.dashboardRenameProject,
    ...secured,
    handler: async (request) => projectJson(await accounts.projects.renameProject(dashboardActor(request), request.params.projectId, request.body.name)),
  });

  app.route({
    ...dashboardProjectOperations.dashboardDeleteProject,
    ...secured,
    handler: async (request, reply) => {
      await accounts.projects.deleteProject(dashboardActor(request), request.params.projectId);
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...dashboardProjectOperations.dashboardListEnvironments,
    ...secured,
    handler: async (request) => ({ data: (await accounts.projects.environments(dashboardActor(request), request.params.projectId)).map(environmentJson) }),
  });

  app.route({
    ...dashboardProjectOperations.dashboardCreateEnvironment,
    ...secured,
    handler: async (request, reply) =>
      reply.code(201).send(environmentJson(await accounts.projects.createEnvironment(dashboardActor(request), request.params.projectId, request.body.name))),
  });

  app.route({
    ...dashboardProjectOperations.dashboardGetEnvironment,
    ...secured,
    handler: async (request) => environmentJson(await accounts.projects.environment(dashboardActor(request), request.params.envId)),
  });

  app.route({
    ...dashboardProjectOperations.dashboardRenameEnvironment,
    ...secured,
    handler: async (request) => environmentJson(await accounts.projects.renameEnvironment(dashboardActor(request), request.params.envId, request.body.name)),
  });

  app.route({
    ...dashboardProjectOperations.dashboardDeleteEnvironment,
    ...secured,
    handler: async (request, reply) => {
      await accounts.projects.deleteEnvironment(dashboardActor(request), request.params.envId, request.body.confirm);
      return reply.code(204).send(null);
    },
  });
}
