/**
 * The CloudFormation template of AWS role assumption: a role the workspace's account lets this
 * server assume (its principal, with the workspace's external id), allowed what the control plane
 * does there and no more: EC2 for clusters and their security groups, and the one instance role
 * and profile cluster machines run with (made, passed to instances, removed).
 */

/** An ARN as CloudFormation's Fn::Sub fills it in: `\${AWS::AccountId}`, `\${InstanceRoleName}`... */
const sub = (arn: string) => ({ 'Fn::Sub': `arn:\${AWS::Partition}:${arn}` });

/** EC2 calls the control plane makes (setup, launches, describes, stops). */
export const EC2_ACTIONS = [
  'ec2:DescribeVpcs',
  'ec2:DescribeSubnets',
  'ec2:DescribeSecurityGroups',
  'ec2:DescribeAvailabilityZones',
  'ec2:DescribeImages',
  'ec2:DescribeInstances',
  'ec2:CreateSecurityGroup',
  'ec2:RunInstances',
];

export function rolePolicy() {
  return {
    Version: '2012-10-17',
    Statement: [
      { Sid: 'Clusters', Effect: 'Allow', Action: EC2_ACTIONS, Resource: '*' },
      {
        Sid: 'TagWhatItMakes',
        Effect: 'Allow',
        Action: 'ec2:CreateTags',
        Resource: '*',
        Condition: { StringEquals: { 'ec2:CreateAction': ['RunInstances', 'CreateSecurityGroup'] } },
      },
      {
        Sid: 'OnlyItsOwnInstances',
        Effect: 'Allow',
        Action: 'ec2:TerminateInstances',
        Resource: '*',
        Condition: { StringLike: { 'ec2:ResourceTag/cumulus:backend-id': '*' } },
      },
      {
        Sid: 'OnlyItsOwnSecurityGroups',
        Effect: 'Allow',
        Action: [
          'ec2:AuthorizeSecurityGroupIngress',
          'ec2:RevokeSecurityGroupIngress',
          'ec2:DeleteSecurityGroup',
        ],
        Resource: '*',
        Condition: { StringLike: { 'ec2:ResourceTag/cumulus:workspace-id': '*' } },
      },
      {
        Sid: 'TheInstanceRole',
        Effect: 'Allow',
        Action: ['iam:CreateRole', 'iam:DeleteRole', 'iam:PassRole'],
        Resource: sub(`iam::\${AWS::AccountId}:role/\${InstanceRoleName}`),
      },
      {
        Sid: 'TheInstanceProfile',
        Effect: 'Allow',
        Action: [
          'iam:GetInstanceProfile',
          'iam:CreateInstanceProfile',
          'iam:AddRoleToInstanceProfile',
          'iam:RemoveRoleFromInstanceProfile',
          'iam:DeleteInstanceProfile',
        ],
        Resource: sub(`iam::\${AWS::AccountId}:instance-profile/\${InstanceRoleName}`),
      },
      {
        // Spot instances need EC2's spot service role; the first spot launch of an account makes it.
        Sid: 'SpotServiceRole',
        Effect: 'Allow',
        Action: 'iam:CreateServiceLinkedRole',
        Resource: sub(
          `iam::\${AWS::AccountId}:role/aws-service-role/spot.amazonaws.com/AWSServiceRoleForEC2Spot`,
        ),
        Condition: { StringEquals: { 'iam:AWSServiceName': 'spot.amazonaws.com' } },
      },
    ],
  };
}

/** The template: parameters say whom to trust, with which external id, and the names to use. */
export function roleTemplate() {
  return {
    AWSTemplateFormatVersion: '2010-09-09',
    Description: 'Lets Cumulus run Dask clusters in this account: a role it assumes with an external id.',
    Parameters: {
      CumulusPrincipal: { Type: 'String', Description: 'The AWS identity of the Cumulus server.' },
      ExternalId: { Type: 'String', Description: 'The external id Cumulus chose for your workspace.' },
      RoleName: { Type: 'String', Description: 'The name of the role Cumulus assumes.' },
      InstanceRoleName: {
        Type: 'String',
        Description: "The name of the role (and instance profile) Cumulus makes for the clusters' machines.",
      },
    },
    Resources: {
      CumulusRole: {
        Type: 'AWS::IAM::Role',
        Properties: {
          RoleName: { Ref: 'RoleName' },
          AssumeRolePolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Principal: { AWS: { Ref: 'CumulusPrincipal' } },
                Action: 'sts:AssumeRole',
                Condition: { StringEquals: { 'sts:ExternalId': { Ref: 'ExternalId' } } },
              },
            ],
          },
          Policies: [{ PolicyName: 'cumulus-control-plane', PolicyDocument: rolePolicy() }],
        },
      },
    },
    Outputs: { RoleArn: { Value: { 'Fn::GetAtt': ['CumulusRole', 'Arn'] } } },
  };
}
