import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

export const register = (body: ApiBody<'/api/v1/registration/', 'post'>) =>
  call(api.POST('/api/v1/registration/', { body }));

export function useRegisterMutation(options?: MutationOptions<typeof register>) {
  return useApiMutation(register, options);
}
